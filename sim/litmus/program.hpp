// A PTX litmus program: threads placed in CTAs, each a list of instructions
// over registers and named global locations, an initial state, and a final
// condition. The parser builds one from a .litmus file; tests (and random
// program generators) build one with the small builder below. `to_model`
// turns it into a models::Model that runs on the engine like any kernel;
// `print` writes it back as a litmus listing that `parse` reads again.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/model.hpp"
#include "sim/core/event.hpp"
#include "sim/core/scope.hpp"
#include "sim/litmus/condition.hpp"

namespace scopesim::litmus {

// A constant or a register ("r2"), as an instruction operand.
struct Operand {
  std::optional<std::string> reg;  // set: the register's value; else `value`
  std::int32_t value = 0;
  static Operand constant(std::int32_t v) { return Operand{std::nullopt, v}; }
  static Operand of(const std::string& r) { return Operand{r, 0}; }
};

enum class Op : std::uint8_t {
  ld,          // ld.SEM[.SCOPE] reg, loc
  st,          // st.SEM[.SCOPE] loc, a
  atom,        // atom.SEM.SCOPE.OP reg, loc, a [, b for cas]
  red,         // red.SEM.SCOPE.OP loc, a
  fence,       // fence.sc.SCOPE / fence.acq_rel.SCOPE
  bar_sync,    // bar.cta.sync INSTANCE [, ID [, COUNT]]
  bar_arrive,  // bar.cta.arrive INSTANCE [, ID [, COUNT]]
  local,       // add/sub/mul/div/rem/and/or/xor/shl/shr reg, a, b (no memory access)
  label,       // LABEL:
  jump,        // goto LABEL
  branch,      // beq/bne/blt/ble/bgt/bge a, b, LABEL
};

enum class LocalOp : std::uint8_t { add, sub, mul, div, rem, and_, or_, xor_, shl, shr };
enum class BranchCmp : std::uint8_t { eq, ne, lt, le, gt, ge };

struct Instr {
  Op op = Op::ld;
  Sem sem = Sem::weak;          // ld/st/atom/red/fence; `volatile` is relaxed.sys
  Scope scope = Scope::sys;
  bool is_volatile = false;     // ld.volatile / st.volatile (printed back as such)
  // The .u32 type: div, rem, shr, atom/red min and max, and branch
  // comparisons are unsigned (PTX); without it (or with .s32, .b32) they are
  // signed, but shr.b32, which PTX fills with zeros as .u32 (the parser sets
  // it). inc and dec are unsigned either way (PTX defines them for .u32 only).
  bool is_unsigned = false;
  RmwOp rmw = RmwOp::add;       // atom/red
  LocalOp local = LocalOp::add;
  BranchCmp cmp = BranchCmp::eq;
  std::string reg;              // destination register (ld, atom, local)
  std::string loc;              // location (ld, st, atom, red)
  Operand a, b;                 // st value; atom/red operand (cas: a = expected, b = desired);
                                // local/branch operands; barrier: a = id, b = count
  bool has_count = false;       // barrier: a thread count was given
  std::int32_t instance = 0;    // barrier: the first operand (names the barrier when no id follows)
  std::string label;            // label, jump and branch target
  std::uint32_t line = 0;       // line in the listing (0: none); identifies the instruction
};

// A thread and where it runs: CTA (block) and GPU.
struct Thread {
  std::string name;  // "P0"
  std::uint32_t cta = 0;
  std::uint32_t gpu = 0;
  std::vector<Instr> code;
  std::map<std::string, std::int32_t> init;  // initial register values (default 0)

  // Builder: each call appends one instruction and returns the thread.
  Thread& ld(Sem s, Scope sc, const std::string& reg, const std::string& loc);
  Thread& st(Sem s, Scope sc, const std::string& loc, Operand v);
  Thread& atom(Sem s, Scope sc, RmwOp op, const std::string& reg, const std::string& loc, Operand v,
               Operand desired = Operand::constant(0));
  Thread& red(Sem s, Scope sc, RmwOp op, const std::string& loc, Operand v);
  Thread& fence(Sem s, Scope sc);  // Sem::sc or Sem::acq_rel
  Thread& bar_sync(std::int32_t id);
  Thread& local(LocalOp op, const std::string& reg, Operand a, Operand b);
  Thread& label(const std::string& l);
  Thread& jump(const std::string& l);
  Thread& branch(BranchCmp c, Operand a, Operand b, const std::string& l);
};

struct Program {
  std::string name;                              // from the `PTX NAME` header
  std::string file;                              // the listing's path ("" when built in code)
  std::map<std::string, std::int32_t> locations;  // initial values; every location used is here
  std::vector<Thread> threads;
  Condition condition;

  // Builder: a new thread P<n> in CTA `cta` of GPU `gpu`.
  Thread& thread(std::uint32_t cta, std::uint32_t gpu = 0);
  Program& location(const std::string& name, std::int32_t init = 0);

  // Why this program cannot run in the simulator ("" if it can): threads on
  // more than one GPU, undefined labels, locations used but not declared, ...
  std::string unsupported() const;
};

// The litmus listing of a program (parse(print(p)) gives p back, lines aside).
std::string print(const Program& p);

// The registers and locations the condition names, as outcome names
// ("P0:r1", "x"), in order of first mention.
std::vector<std::string> observed_names(const Program& p);

// Name of the outcome value that holds the condition's truth (0 or 1).
inline constexpr const char* condition_name = "condition";

// The model that runs the program on the engine: the host allocates every
// location (and barrier counters), writes the initial state, launches one
// grid (CTA n = block n; the threads of a CTA are threads 0, 1, ... of their
// block, in listing order, in one warp; other threads of the launch exit at
// once), waits, and observes the condition's registers and locations and the
// condition itself. A bad outcome is what the condition's quantifier asks
// about: for `exists`, an outcome satisfying it (the witness); for `~exists`,
// one satisfying it (a counterexample); for `forall`, one violating it.
// Precondition: p.unsupported() is empty.
models::Model to_model(std::shared_ptr<const Program> p);

}  // namespace scopesim::litmus
