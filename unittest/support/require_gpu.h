// Skip a GPU test, with the reason, on a machine without a GPU (CI has none;
// bench/device_check.sh runs these tests on the device machine). On a machine
// with one, a CUDA driver that cannot start fails the test (gpu_machine.h).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "gpu_machine.h"
#include "puremd_gpu/engine.h"

#define REQUIRE_GPU()                                                                          \
  do {                                                                                         \
    std::string why_;                                                                          \
    if (!::puremd::cuda_available(&why_)) {                                                    \
      if (gpu_machine()) FAIL() << "this machine has a GPU, but CUDA cannot use it: " << why_; \
      GTEST_SKIP() << "no GPU: " << why_;                                                      \
    }                                                                                          \
  } while (0)
