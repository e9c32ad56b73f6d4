#include "sim/litmus/condition.hpp"

#include <set>

namespace scopesim::litmus {

std::string Term::outcome_name() const {
  switch (kind) {
    case Kind::constant: return std::to_string(value);
    case Kind::reg: return "P" + std::to_string(thread) + ":" + name;
    case Kind::location: return name;
  }
  return "?";
}

bool evaluate(const Expr& e, const std::function<std::int32_t(const Term&)>& value) {
  switch (e.kind) {
    case Expr::Kind::true_: return true;
    case Expr::Kind::eq: return value(e.lhs) == value(e.rhs);
    case Expr::Kind::ne: return value(e.lhs) != value(e.rhs);
    case Expr::Kind::not_: return !evaluate(*e.sub[0], value);
    case Expr::Kind::and_:
      for (const auto& s : e.sub)
        if (!evaluate(*s, value)) return false;
      return true;
    case Expr::Kind::or_:
      for (const auto& s : e.sub)
        if (evaluate(*s, value)) return true;
      return false;
  }
  return false;
}

bool holds(Quantifier q, bool some_satisfies, bool some_violates) {
  switch (q) {
    case Quantifier::exists: return some_satisfies;
    case Quantifier::not_exists: return !some_satisfies;
    case Quantifier::forall: return !some_violates;
  }
  return false;
}

namespace {
// `seen`: the outcome names already in `out`.
void collect(const Expr& e, std::vector<Term>& out, std::set<std::string>& seen) {
  auto add = [&](const Term& t) {
    if (t.kind != Term::Kind::constant && seen.insert(t.outcome_name()).second) out.push_back(t);
  };
  if (e.kind == Expr::Kind::eq || e.kind == Expr::Kind::ne) {
    add(e.lhs);
    add(e.rhs);
  }
  for (const auto& s : e.sub) collect(*s, out, seen);
}
}  // namespace

std::vector<Term> terms(const Expr& e) {
  std::vector<Term> out;
  std::set<std::string> seen;
  collect(e, out, seen);
  return out;
}

std::string_view name(Quantifier q) {
  switch (q) {
    case Quantifier::exists: return "exists";
    case Quantifier::not_exists: return "~exists";
    case Quantifier::forall: return "forall";
  }
  return "?";
}

std::string print(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::true_: return "0 == 0";
    case Expr::Kind::eq: return e.lhs.outcome_name() + " == " + e.rhs.outcome_name();
    case Expr::Kind::ne: return e.lhs.outcome_name() + " != " + e.rhs.outcome_name();
    case Expr::Kind::not_: return "~(" + print(*e.sub[0]) + ")";
    case Expr::Kind::and_:
    case Expr::Kind::or_: {
      std::string s = "(";
      for (std::size_t i = 0; i < e.sub.size(); ++i)
        s += (i == 0 ? "" : e.kind == Expr::Kind::and_ ? " /\\ " : " \\/ ") + print(*e.sub[i]);
      return s + ")";
    }
  }
  return "?";
}

std::string print(const Condition& c) { return std::string(name(c.quantifier)) + " (" + print(*c.expr) + ")"; }

}  // namespace scopesim::litmus
