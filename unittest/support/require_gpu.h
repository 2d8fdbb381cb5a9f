// Skip a GPU test, with the reason, on a machine without a usable CUDA device
// (CI has none; bench/device_check.sh runs these tests on the H100).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "puremd_gpu/engine.h"

#define REQUIRE_GPU()                                                         \
  do {                                                                        \
    std::string why_;                                                         \
    if (!::puremd::cuda_available(&why_)) GTEST_SKIP() << "no GPU: " << why_; \
  } while (0)
