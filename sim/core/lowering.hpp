// How CUDA C++ compiles each dialect operation to PTX on sm_70 and later
// (semantics.md, "Operations and how CUDA C++ lowers them"). This is the only
// place that knows the table; the memory model sees PtxOps alone.
#pragma once
#include <cstdint>
#include <string>

#include "sim/core/event.hpp"
#include "sim/core/scope.hpp"

namespace scopesim {

enum class PtxKind : std::uint8_t { ld, st, atom, fence_sc, fence_acq_rel };

struct PtxOp {
  PtxKind kind = PtxKind::ld;
  Sem sem = Sem::weak;
  Scope scope = Scope::sys;
};

// At most two PTX operations per dialect operation (a leading fence.sc for
// seq_cst accesses). An empty lowering (relaxed fence) orders nothing.
struct Lowering {
  PtxOp ops[2];
  std::uint8_t count = 0;
  void push(PtxOp op) { ops[count++] = op; }
};

Lowering lower(const Event& e);

// "st.release.gpu", "fence.sc.cta", "ld.weak" ...
std::string ptx_name(const PtxOp& op);

}  // namespace scopesim
