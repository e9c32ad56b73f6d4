// A catalogue property as a test: it looks its model up and skips, naming the
// model, when this build does not have it, so properties of model families
// still being written can sit beside the others. The number of cases and the
// seed come from RC_PARAMS (tests/properties/CMakeLists.txt sets them for CI).
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "sim/api/rapidcheck.hpp"

// SCOPESIM_PROPERTY(Suite, Name, "tile.barrier") { ... uses `model` ... }
#define SCOPESIM_PROPERTY(Suite, Name, model_name)                                                      \
  static void Suite##_##Name##_property(const ::scopesim::models::Model& model);                      \
  TEST(Suite, Name) {                                                                                  \
    const ::scopesim::models::Model* m = ::scopesim::find_model(model_name);                          \
    if (m == nullptr) GTEST_SKIP() << "model " << (model_name) << " is not in this build";            \
    EXPECT_TRUE(::rc::check(#Suite "." #Name, [m] { Suite##_##Name##_property(*m); }))                \
        << "the property failed; rapidcheck printed the smallest counterexample and its report above"; \
  }                                                                                                    \
  static void Suite##_##Name##_property(const ::scopesim::models::Model& model)
