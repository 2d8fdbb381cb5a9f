// Exceptions the library throws; the LAMMPS adapter turns them into
// error->all / error->one messages so the user sees what to fix.
#pragma once

#include <stdexcept>
#include <string>

namespace puremd {

// Bad user input: a missing or malformed file, an unknown keyword or element.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A failing device call, out of memory, or a broken internal invariant.
struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The system does not fit this rank's GPU: the message says how much memory
// its atoms need, what the GPU has and how many GPUs would hold it. A
// RuntimeError (nothing in the input is wrong, and the same run fits on more
// GPUs); the object that threw stays usable once memory is back.
struct GpuMemoryError : RuntimeError {
  using RuntimeError::RuntimeError;
};

}  // namespace puremd
