#include "fix_reaxff_bonds_gpu.h"

#include <algorithm>
#include <thread>

#include "atom.h"
#include "bonds_text.h"
#include "comm.h"
#include "error.h"
#include "memory.h"
#include "pair_reaxff_gpu.h"
#include "platform.h"
#include "reaxff_defs.h"
#include "style_registry.h"
#include "update.h"
#include "utils.h"

using namespace LAMMPS_NS;

namespace {

// Messages of text to rank 0 in pieces MPI's int count can hold.
constexpr size_t kPiece = size_t{1} << 30;

// Threads formatting one rank's lines: the node's cores shared by its ranks.
int format_threads(MPI_Comm world) {
  MPI_Comm node;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ranks = 1;
  MPI_Comm_size(node, &ranks);
  MPI_Comm_free(&node);
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(cores / std::max(ranks, 1), 1, 8);
}

}  // namespace

void FixReaxFFBondsGPU::init() {
  FixReaxFFBonds::init();
  ours = dynamic_cast<PairReaxFFGPU *>(reaxff);
  if (!ours)
    error->all(FLERR,
               "Fix reaxff/bonds/gpu needs pair_style reaxff/gpu; with pair_style reaxff use fix "
               "reaxff/bonds");
  threads = format_threads(world);
}

// LAMMPS's Output_ReaxFF_Bonds, on the pair's compact rows (see the header).
void FixReaxFFBondsGPU::Output_ReaxFF_Bonds() {
  const puremd::BondRows &rows = ours->bond_rows(puremd::BondRowRule::Bonds);
  int widest = 0;
  MPI_Allreduce(&rows.widest, &widest, 1, MPI_INT, MPI_MAX, world);
  if (widest > MAXREAXBOND)
    error->all(FLERR,
               "Fix reaxff/bonds/gpu: an atom has {} bonds above the bond_graph_cutoff, more than "
               "fix reaxff/bonds takes (MAXREAXBOND = {} in LAMMPS's src/REAXFF/reaxff_defs.h)",
               widest, MAXREAXBOND);
  keep_rows(rows);
  if (!writes_file()) return;

  const int nlocal = atom->nlocal;
  const tagint *tag = atom->tag;
  const std::vector<double> &sbo = ours->total_bond_orders(), &nlp = ours->lone_pairs();
  BondsBlock block;
  block.ids.reserve(static_cast<size_t>(nlocal) * 4 + rows.partner.size());
  block.vals.reserve(static_cast<size_t>(nlocal) * 3 + rows.bo.size());
  for (int i = 0; i < nlocal; ++i) {
    const int s = rows.start[i], e = rows.start[i + 1];
    block.add_atom(tag[i], atom->type[i], e - s);
    for (int p = s; p < e; ++p) block.ids.push_back(tag[rows.partner[p]]);
    block.ids.push_back(atom->molecule ? atom->molecule[i] : 0);
    block.vals.insert(block.vals.end(), rows.bo.begin() + s, rows.bo.begin() + e);
    block.vals.push_back(sbo[i]);
    block.vals.push_back(nlp[i]);
    block.vals.push_back(atom->q[i]);
  }
  std::vector<std::string> text = bonds_text(block, threads);

  if (comm->me != 0) {
    std::string all;
    for (const auto &t : text) all += t;
    long long size = static_cast<long long>(all.size());
    MPI_Send(&size, 1, MPI_LONG_LONG, 0, 0, world);
    for (size_t at = 0; at < all.size(); at += kPiece)
      MPI_Send(all.data() + at, static_cast<int>(std::min(kPiece, all.size() - at)), MPI_CHAR, 0, 0,
               world);
    return;
  }
  FILE *out = output_file();
  utils::print(out, "# Timestep {}\n#\n# Number of particles {}\n#\n", update->ntimestep,
               static_cast<int>(atom->natoms));
  utils::print(out,
               "# Max number of bonds per atom {} with coarse bond order cutoff {:5.3f}\n"
               "# Particle connection table and bond orders\n"
               "# id type nb id_1...id_nb mol bo_1...bo_nb abo nlp q\n",
               widest, ours->control_params().bg_cut);
  for (const auto &t : text) fwrite(t.data(), 1, t.size(), out);
  std::string theirs;
  for (int r = 1; r < comm->nprocs; ++r) {
    long long size = 0;
    MPI_Recv(&size, 1, MPI_LONG_LONG, r, 0, world, MPI_STATUS_IGNORE);
    theirs.resize(static_cast<size_t>(size));
    for (size_t at = 0; at < theirs.size(); at += kPiece)
      MPI_Recv(theirs.data() + at, static_cast<int>(std::min(kPiece, theirs.size() - at)), MPI_CHAR,
               r, 0, world, MPI_STATUS_IGNORE);
    fwrite(theirs.data(), 1, theirs.size(), out);
  }
  fputs("# \n", out);
  fflush(out);
}

// The rows in the fix's own arrays too, as LAMMPS's FindBond leaves them
// (what the fix's dump image bonds read, where LAMMPS has them).
void FixReaxFFBondsGPU::keep_rows(const puremd::BondRows &rows) {
  if (atom->nmax > nmax) {
    destroy();
    nmax = atom->nmax;
    allocate();
  }
  const tagint *tag = atom->tag;
  const int nlocal = atom->nlocal;
  for (int i = nlocal; i < nmax; ++i) numneigh[i] = 0;
  for (int i = 0; i < nlocal; ++i) {
    const int s = rows.start[i];
    numneigh[i] = rows.start[i + 1] - s;
    for (int k = 0; k < numneigh[i]; ++k) {
      neighid[i][k] = tag[rows.partner[s + k]];
      abo[i][k] = rows.bo[s + k];
    }
  }
#ifdef LAMMPS_REAXFF_BONDS_FILE_PER_STEP
  numobjs = static_cast<int>(rows.partner.size());
#endif
}

// LAMMPS versions after 4Feb2025 take NULL for no file, and a '*' in the
// name for a file per output step, opened when written.
bool FixReaxFFBondsGPU::writes_file() const {
#ifdef LAMMPS_REAXFF_BONDS_FILE_PER_STEP
  return filename != "NULL";
#else
  return true;
#endif
}

FILE *FixReaxFFBondsGPU::output_file() {
#ifdef LAMMPS_REAXFF_BONDS_FILE_PER_STEP
  std::string name = filename;
  if (multifile) {
    name = utils::star_subst(name, update->ntimestep, padflag);
    if (fp) fclose(fp);
    fp = nullptr;
  }
  if (!fp) {
    fp = compressed ? platform::compressed_write(name) : fopen(name.c_str(), "w");
    if (!fp)
      error->one(FLERR, "Cannot open fix reaxff/bonds/gpu file {}: {}", name, utils::getsyserror());
  }
#endif
  return fp;
}

namespace {
const reaxff_gpu::RegisterStyle registered{reaxff_gpu::fix_style(
    {"reaxff/bonds/gpu"}, "fix reaxff/bonds for pair_style reaxff/gpu (bonds picked on the GPU)",
    &reaxff_gpu::new_fix<FixReaxFFBondsGPU>)};
}  // namespace
