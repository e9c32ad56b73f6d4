#include "sim/core/door.hpp"

namespace scopesim {

namespace {
thread_local Door* current = nullptr;
}

Door* current_door() { return current; }
void set_current_door(Door* d) { current = d; }

}  // namespace scopesim
