// A shipped model: one kernel family's variant with its launch configuration,
// host program, outcome postcondition, scope-and-order invariant and expected
// verdict, all as data. Compiled by both backends; the registry collects every
// model that a translation unit defines with SCOPESIM_MODEL.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "models/dialect/dialect.hpp"
#include "sim/core/finding.hpp"
#include "sim/core/outcome.hpp"

namespace scopesim::models {

// Launch geometry of a model. `resident_blocks` 0 = every block resident.
struct Config {
  unsigned grid = 1;
  unsigned block = 1;
  unsigned resident_blocks = 0;
};

// What the model is expected to show (catalogue.md / semantics.md verdict table).
struct Expectation {
  // Is some permitted outcome bad (the postcondition fails)?
  bool bad_outcome_permitted = false;
  // Findings that must appear.
  std::vector<FindingKind> required;
  // When true, no finding beyond `required` may appear (catalogue models);
  // litmus models leave it false: racy litmus code also reports races.
  bool exact_findings = true;
};

// A further verdict of the same model under other options (e.g. one resident block).
struct AlsoCheck {
  std::string options;  // as the CLI spells them: "--resident-blocks 1"
  Config config;
  Expectation expect;
};

struct Model {
  std::string name;        // "publish.relaxed"
  std::string summary;     // one line
  std::string invariant;   // the scope-and-order invariant in words
  std::string bad_means;   // what a bad outcome is ("stale payload: error=1")
  Config chapter;          // the chapter's own launch configuration
  void (*program)(dialect::Host&, const Config&) = nullptr;
  bool (*bad)(const Outcome&) = nullptr;  // postcondition violated
  Expectation expect;
  std::vector<AlsoCheck> also;
  // Expected count of executions explored exhaustively at `chapter`
  // (0 = not stated); each stated count is derived next to the model.
  unsigned long long exhaustive_executions = 0;
};

std::vector<Model>& registry();

struct Registrar {
  explicit Registrar(std::initializer_list<Model> ms) {
    for (const Model& m : ms) registry().push_back(m);
  }
};

}  // namespace scopesim::models
