// The arrays of the CUDA QEq solver's matrix, shared by its ways of holding
// it (qeq_matrix_store.h), on the engine's memory tracker.
#pragma once

#include <cuda_runtime.h>

#include "common/charges/qeq_matrix_choice.h"
#include "cuda/device_buffer.h"

namespace puremd::cuda {

struct QEqMatrixPool {
  explicit QEqMatrixPool(MemoryTracker &m) : mem(m) {}
  MemoryTracker &mem;
  // rows (Full, Half in rows; Free counts them only): where each starts and
  // ends, how many entries it has; columns and values
  DeviceArray<long long> row_count{"QEq: matrix row counts", &mem},
      row_start{"QEq: matrix row starts", &mem}, row_end{"QEq: matrix row ends", &mem};
  DeviceArray<int> col{"QEq: matrix columns", &mem};
  // the tiles (qeq_matrix_half_tiles.cu): per tile where its partners (and
  // this solve's entries) start, how many of each it has and where its
  // values start; the partners (for the list's life), this solve's entries
  // (values in val)
  DeviceArray<long long> tile_entry_start{"QEq: tile entry starts", &mem},
      tile_value_start{"QEq: tile value starts", &mem};
  DeviceArray<int> tile_partner_count{"QEq: tile partner counts", &mem},
      tile_entry_count{"QEq: tile entry counts", &mem};
  DeviceArray<int2> tile_partner{"QEq: tile partners", &mem};
  DeviceArray<int4> tile_entry{"QEq: tile entries", &mem};
  DeviceArray<double> val{"QEq: matrix values", &mem};  // rows' or tiles'
  int n_tiles = 0;
};

}  // namespace puremd::cuda
