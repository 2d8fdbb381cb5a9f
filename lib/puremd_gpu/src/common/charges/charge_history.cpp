// ChargeHistory: the host blocks, brought home from a driver's mirror before
// every host access.
#include "puremd_gpu/charge_history.h"

#include <algorithm>
#include <string>

#include "puremd_gpu/errors.h"

namespace puremd {

ChargeHistory::ChargeHistory(int depth) : depth_(depth) {
  if (depth < kQEqHistoryDepth)
    throw InputError("charge history: the depth must be at least " +
                     std::to_string(kQEqHistoryDepth) + " past values (the predictors'), got " +
                     std::to_string(depth));
  global_.assign(per_atom(), 0.0);
}

void ChargeHistory::bring_home() {
  if (mirror_rows_ < 0) return;
  const int rows = mirror_rows_;
  mirror_rows_ = -1;  // a failed fetch leaves the host's values (a worse guess, never a wrong one)
  grow(rows);
  if (rows > 0) mirror_->fetch(values_.data(), static_cast<std::size_t>(rows) * per_atom());
}

// Growing keeps entries by index: the mirror's rows stay the newest.
void ChargeHistory::grow(int n) {
  const std::size_t want = static_cast<std::size_t>(std::max(n, 0)) * per_atom();
  if (values_.size() < want) values_.resize(want, 0.0);
}

// The mirror's rows become zero too (no fetch needed).
void ChargeHistory::clear() {
  grow(mirror_rows_);
  mirror_rows_ = -1;
  std::fill(values_.begin(), values_.end(), 0.0);
  std::fill(global_.begin(), global_.end(), 0.0);
}

void ChargeHistory::copy(int from, int to) {
  if (from == to) return;
  bring_home();
  std::copy_n(block(from), per_atom(), block(to));
}

int ChargeHistory::pack(int i, double *buf) {
  bring_home();
  std::copy_n(block(i), per_atom(), buf);
  return per_atom();
}

int ChargeHistory::unpack(int i, const double *buf) {
  bring_home();
  grow(i + 1);
  std::copy_n(buf, per_atom(), block(i));
  return per_atom();
}

double ChargeHistory::s(int i, int k) {
  bring_home();
  return block(i)[k];
}

double ChargeHistory::t(int i, int k) {
  bring_home();
  return block(i)[depth_ + k];
}

std::size_t ChargeHistory::bytes() const {
  return values_.capacity() * sizeof(double) + (mirror_ ? mirror_->bytes() : 0);
}

double *ChargeHistory::gpu_blocks(int n) {
  if (!mirror_) return nullptr;
  n = std::max(n, 0);
  const std::size_t per = per_atom(), want = static_cast<std::size_t>(n) * per;
  double *dev;
  if (mirror_rows_ >= 0) {
    dev = mirror_->gpu_room(std::min<std::size_t>(mirror_rows_, n) * per, want, nullptr, 0);
  } else {  // the host's are newest
    dev = mirror_->gpu_room(0, want, values_.data(), std::min(values_.size(), want));
  }
  mirror_rows_ = n;
  return dev;
}

double *ChargeHistory::host_blocks(int n) {
  bring_home();
  grow(n);
  return values_.data();
}

void ChargeHistory::attach(std::unique_ptr<Mirror> mirror) {
  bring_home();
  mirror_ = std::move(mirror);
}

}  // namespace puremd
