// Every atom's owner on this rank by the one rule (physics/ghost_owner.h), on
// the host: the host FSAI's columns, and the tests of the rule.
#pragma once

#include <vector>

#include "puremd_gpu/atom_input.h"

namespace puremd {

// owner[i] for i < n_total: i itself for an owned atom, the owned atom with
// its id for a ghost, -1 where no owned atom has it (another rank's atom).
void owners_by_id(const TagArray &tag, int n_local, int n_total, std::vector<int> &owner);

}  // namespace puremd
