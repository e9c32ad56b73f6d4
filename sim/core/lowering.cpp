#include "sim/core/lowering.hpp"

namespace scopesim {

std::string ptx_name(const PtxOp& op) {
  std::string n;
  switch (op.kind) {
    case PtxKind::ld: n = "ld"; break;
    case PtxKind::st: n = "st"; break;
    case PtxKind::atom: n = "atom"; break;
    case PtxKind::fence_sc: return "fence.sc." + std::string(name(op.scope));
    case PtxKind::fence_acq_rel: return "fence.acq_rel." + std::string(name(op.scope));
  }
  n += ".";
  n += name(op.sem);
  if (op.sem != Sem::weak) {
    n += ".";
    n += name(op.scope);
  }
  return n;
}

}  // namespace scopesim
