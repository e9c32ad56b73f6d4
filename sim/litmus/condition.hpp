// The final condition of a litmus test: a quantifier over a proposition on
// final register values ("P0:r1") and final memory values ("x").
//   exists C   — the test holds when some execution ends satisfying C
//   ~exists C  — it holds when no execution does
//   forall C   — it holds when every execution does
// Executions that never end (deadlock, hang) have no final state and do not count.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace scopesim::litmus {

enum class Quantifier : std::uint8_t { exists, not_exists, forall };

// A value in the condition: a constant, a thread's register or a location.
struct Term {
  enum class Kind : std::uint8_t { constant, reg, location } kind = Kind::constant;
  std::int32_t value = 0;    // constant
  std::uint32_t thread = 0;  // reg: the thread index (P<thread>)
  std::string name;          // reg name ("r1") or location name ("x")
  std::string outcome_name() const;  // "P0:r1", "x", or the constant's digits
};

// A chain `a /\ b /\ c` is one and_ node with three operands, so that no
// recursion over an Expr goes deeper per operand of a chain: only parentheses
// and negations nest, and a parsed condition nests at most max_nesting deep.
struct Expr {
  enum class Kind : std::uint8_t { eq, ne, and_, or_, not_, true_ } kind = Kind::true_;
  Term lhs, rhs;                          // eq, ne
  std::vector<std::shared_ptr<Expr>> sub; // and_, or_ (two or more), not_ (one)
};

// The deepest nesting of parentheses and negations a condition may have: every
// recursion over an Expr (evaluate, print, terms) runs, on a fiber's stack
// among others, at most about twice this deep.
inline constexpr std::size_t max_nesting = 100;

struct Condition {
  Quantifier quantifier = Quantifier::exists;
  std::shared_ptr<Expr> expr = std::make_shared<Expr>();
  std::uint32_t line = 0;
};

// Evaluates `e` with `value` giving each register or location's final value.
bool evaluate(const Expr& e, const std::function<std::int32_t(const Term&)>& value);

// Does the test hold, given whether some final state satisfies the condition
// (`some_satisfies`) and whether some final state violates it (`some_violates`)?
bool holds(Quantifier q, bool some_satisfies, bool some_violates);

// Every register and location term, in order of first mention.
std::vector<Term> terms(const Expr& e);

// "exists ((P0:r0 == 1 /\ x != 2 /\ y == 0))": an and_/or_ node in parentheses, its operands in order
std::string print(const Condition& c);
std::string print(const Expr& e);
std::string_view name(Quantifier q);  // "exists", "~exists", "forall"

}  // namespace scopesim::litmus
