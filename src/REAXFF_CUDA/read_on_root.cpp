#include "read_on_root.h"

#include <mpi.h>

#include "error.h"
#include "fmt/format.h"
#include "text_file_reader.h"
#include "tokenizer.h"
#include "utils.h"

namespace LAMMPS_NS {

void read_type_lines(TextFileReader &reader, int ntypes, const char *style, const std::string &file,
                     const std::string &format, const std::vector<std::vector<double> *> &columns) {
  const size_t k = columns.size();
  for (int i = 1; i <= ntypes; ++i) {
    const char *line = reader.next_line();
    if (!line)
      throw TokenizerException(fmt::format("Fix {}: {} has {} lines for atom types, needs one "
                                           "per atom type ({})",
                                           style, file, i - 1, ntypes),
                               "");
    ValueTokenizer values(line);
    if (values.count() != k + 1)
      throw TokenizerException(fmt::format("Fix {}: {} line must be '{}'", style, file, format),
                               utils::trim(line));  // without its newline
    const int itype = values.next_int();
    if (itype < 1 || itype > ntypes)
      throw TokenizerException(fmt::format("Fix {}: invalid atom type in {}", style, file),
                               std::to_string(itype));
    for (std::vector<double> *c : columns) (*c)[itype] = values.next_double();
  }
}

void broadcast_columns(LAMMPS *lmp, const std::vector<std::vector<double> *> &columns) {
  for (std::vector<double> *c : columns)
    MPI_Bcast(c->data(), static_cast<int>(c->size()), MPI_DOUBLE, 0, lmp->world);
}

}  // namespace LAMMPS_NS
