// What each driver offers the factory (src/factory/engine_factory.cpp): one
// maker per driver. The host driver (src/host/) is always built; the CUDA
// driver's makers come from src/cuda/ or, in a build without CUDA, from
// src/factory/without_cuda.cpp, which refuses with a clear error.
#pragma once

#include <memory>
#include <string>

#include "puremd_gpu/engine.h"

namespace puremd {

std::unique_ptr<Engine> make_host_engine(const ForceField &ff, const Control &control,
                                         const EngineSettings &settings);
std::unique_ptr<Engine> make_cuda_engine(const ForceField &ff, const Control &control,
                                         const EngineSettings &settings);
// A usable CUDA device is present; `why` names it, or says what is missing.
bool cuda_device_available(std::string *why);

}  // namespace puremd
