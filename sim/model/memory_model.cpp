#include "sim/model/memory_model.hpp"

#include "sim/model/ptx_model.hpp"

namespace scopesim {

std::unique_ptr<MemoryModel> make_memory_model(std::string_view name) {
  if (name == "ptx") return std::make_unique<PtxModel>();
  if (name == "sc") return std::make_unique<PtxModel>(PtxOptions{.sequential = true});
  if (name == "scope-blind") return std::make_unique<PtxModel>(PtxOptions{.scope_blind = true});
  return nullptr;
}

std::vector<std::string> memory_model_names() { return {"ptx", "sc", "scope-blind"}; }

}  // namespace scopesim
