// Readers of the analysis styles' files (fix reaxff/bonds's bonds file, a
// dump local of compute reaxff/atom's bonds) as what they say, not as text:
// partners as sets (our lists' order is not reaxff's), values as numbers.
#pragma once

#include <map>
#include <string>
#include <utility>

// dump local of compute reaxff/atom (i j bo): step -> (lower ID, higher ID) -> bo,
// the bonds of order >= min_bo.
using Bonds = std::map<long, std::map<std::pair<long, long>, double>>;
Bonds read_local_bonds(const std::string &path, double min_bo);

// record -> field -> value. A bonds file: record "step:atom ID", fields
// "bo <partner ID>", "abo", "nlp", "q". A dump local: record "step", fields
// "<i>-<j>".
using Table = std::map<std::string, std::map<std::string, double>>;
Table read_bonds_file(const std::string &path);
Table read_local_table(const std::string &path);
// A dump custom whose first column is the atom ID: record "step:atom ID",
// fields "1", "2", ... (the other columns).
Table read_dump_table(const std::string &path);

// The same records and fields, each value within tol (a GoogleTest failure
// for each difference, the first few named).
void expect_same(const Table &ours, const Table &ref, double tol, const std::string &what);
