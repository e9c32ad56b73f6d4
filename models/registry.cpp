#include "models/model.hpp"

namespace scopesim::models {

std::vector<Model>& registry() {
  static std::vector<Model> all;
  return all;
}

}  // namespace scopesim::models
