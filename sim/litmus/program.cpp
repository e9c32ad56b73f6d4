#include "sim/litmus/program.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "sim/litmus/layout.hpp"

namespace scopesim::litmus {

// ---- builder ----

namespace {
Instr access(Op op, Sem s, Scope sc) {
  Instr in;
  in.op = op;
  in.sem = s;
  in.scope = sc;
  return in;
}
}  // namespace

Thread& Thread::ld(Sem s, Scope sc, const std::string& r, const std::string& l) {
  Instr in = access(Op::ld, s, sc);
  in.reg = r;
  in.loc = l;
  code.push_back(in);
  return *this;
}
Thread& Thread::st(Sem s, Scope sc, const std::string& l, Operand v) {
  Instr in = access(Op::st, s, sc);
  in.loc = l;
  in.a = v;
  code.push_back(in);
  return *this;
}
Thread& Thread::atom(Sem s, Scope sc, RmwOp op, const std::string& r, const std::string& l, Operand v,
                     Operand desired) {
  Instr in = access(Op::atom, s, sc);
  in.rmw = op;
  in.reg = r;
  in.loc = l;
  in.a = v;
  in.b = desired;
  code.push_back(in);
  return *this;
}
Thread& Thread::red(Sem s, Scope sc, RmwOp op, const std::string& l, Operand v) {
  Instr in = access(Op::red, s, sc);
  in.rmw = op;
  in.loc = l;
  in.a = v;
  code.push_back(in);
  return *this;
}
Thread& Thread::fence(Sem s, Scope sc) {
  code.push_back(access(Op::fence, s, sc));
  return *this;
}
Thread& Thread::bar_sync(std::int32_t id) {
  Instr in;
  in.op = Op::bar_sync;
  in.instance = id;
  in.a = Operand::constant(id);
  code.push_back(in);
  return *this;
}
Thread& Thread::local(LocalOp op, const std::string& r, Operand a, Operand b) {
  Instr in;
  in.op = Op::local;
  in.local = op;
  in.reg = r;
  in.a = a;
  in.b = b;
  code.push_back(in);
  return *this;
}
Thread& Thread::label(const std::string& l) {
  Instr in;
  in.op = Op::label;
  in.label = l;
  code.push_back(in);
  return *this;
}
Thread& Thread::jump(const std::string& l) {
  Instr in;
  in.op = Op::jump;
  in.label = l;
  code.push_back(in);
  return *this;
}
Thread& Thread::branch(BranchCmp c, Operand a, Operand b, const std::string& l) {
  Instr in;
  in.op = Op::branch;
  in.cmp = c;
  in.a = a;
  in.b = b;
  in.label = l;
  code.push_back(in);
  return *this;
}

Thread& Program::thread(std::uint32_t cta, std::uint32_t gpu) {
  Thread t;
  t.name = "P" + std::to_string(threads.size());
  t.cta = cta;
  t.gpu = gpu;
  threads.push_back(std::move(t));
  return threads.back();
}

Program& Program::location(const std::string& n, std::int32_t init) {
  locations[n] = init;
  return *this;
}

std::string Program::unsupported() const {
  if (threads.empty()) return "the test has no threads";
  for (const Thread& t : threads)
    if (t.gpu != threads[0].gpu)
      return "threads on more than one GPU (" + threads[0].name + " on gpu " + std::to_string(threads[0].gpu) + ", " +
             t.name + " on gpu " + std::to_string(t.gpu) + "): the simulator launches one grid on one GPU";
  if (locations.count(condition_name)) return std::string("a location named '") + condition_name + "'";
  for (const Thread& t : threads) {
    std::set<std::string> labels;
    for (const Instr& in : t.code)
      if (in.op == Op::label) labels.insert(in.label);
    for (const Instr& in : t.code)
      if ((in.op == Op::jump || in.op == Op::branch) && !labels.count(in.label))
        return t.name + " jumps to undefined label " + in.label;
  }
  for (const Term& term : terms(*condition.expr))
    if (term.kind == Term::Kind::reg && term.thread >= threads.size())
      return "the condition names thread P" + std::to_string(term.thread) + ", which is not in the test";
  const Layout l = layout(*this);
  for (std::uint32_t c = 0; c < l.cta_size.size(); ++c)
    if (l.cta_size[c] > 1024) return "more than 1024 threads in cta " + std::to_string(c);
  return "";
}

// ---- printer ----

namespace {

std::string text(const Operand& o) { return o.reg ? *o.reg : std::to_string(o.value); }

std::string sem_scope(const Instr& in) {
  if (in.is_volatile) return ".volatile";
  std::string s = "." + std::string(name(in.sem));
  if (in.sem != Sem::weak || in.op == Op::atom || in.op == Op::red) s += "." + std::string(name(in.scope));
  return s;
}

std::string_view cmp_name(BranchCmp c) {
  switch (c) {
    case BranchCmp::eq: return "beq";
    case BranchCmp::ne: return "bne";
    case BranchCmp::lt: return "blt";
    case BranchCmp::le: return "ble";
    case BranchCmp::gt: return "bgt";
    case BranchCmp::ge: return "bge";
  }
  return "?";
}

std::string_view local_name(LocalOp o) {
  switch (o) {
    case LocalOp::add: return "add";
    case LocalOp::sub: return "sub";
    case LocalOp::mul: return "mul";
    case LocalOp::div: return "div";
    case LocalOp::rem: return "rem";
    case LocalOp::and_: return "and";
    case LocalOp::or_: return "or";
    case LocalOp::xor_: return "xor";
    case LocalOp::shl: return "shl";
    case LocalOp::shr: return "shr";
  }
  return "?";
}

}  // namespace

namespace {
std::string print_untyped(const Instr& in) {
  switch (in.op) {
    case Op::ld: return "ld" + sem_scope(in) + " " + in.reg + ", " + in.loc;
    case Op::st: return "st" + sem_scope(in) + " " + in.loc + ", " + text(in.a);
    case Op::atom: {
      std::string s = "atom" + sem_scope(in) + "." + std::string(name(in.rmw)) + " " + in.reg + ", " + in.loc + ", " + text(in.a);
      if (in.rmw == RmwOp::cas) s += ", " + text(in.b);
      return s;
    }
    case Op::red: return "red" + sem_scope(in) + "." + std::string(name(in.rmw)) + " " + in.loc + ", " + text(in.a);
    case Op::fence: return "fence." + std::string(name(in.sem)) + "." + std::string(name(in.scope));
    case Op::bar_sync:
    case Op::bar_arrive: {
      std::string s = std::string(in.op == Op::bar_sync ? "bar.cta.sync " : "bar.cta.arrive ") + std::to_string(in.instance);
      if (in.a.reg || in.a.value != in.instance || in.has_count) s += ", " + text(in.a);
      if (in.has_count) s += ", " + text(in.b);
      return s;
    }
    case Op::local: return std::string(local_name(in.local)) + " " + in.reg + ", " + text(in.a) + ", " + text(in.b);
    case Op::label: return in.label + ":";
    case Op::jump: return "goto " + in.label;
    case Op::branch: return std::string(cmp_name(in.cmp)) + " " + text(in.a) + ", " + text(in.b) + ", " + in.label;
  }
  return "?";
}
}  // namespace

std::string print(const Instr& in) {
  std::string s = print_untyped(in);
  // The type ends the mnemonic: "atom.relaxed.gpu.min.u32 r0, x, 1", "div.u32 r1, r0, 2".
  if (in.is_unsigned) s.insert(std::min(s.find(' '), s.size()), ".u32");
  return s;
}

std::uint32_t first_row_line(const Program& p) {
  bool regs = false;
  for (const Thread& t : p.threads) regs |= !t.init.empty();
  // PTX NAME / { / locations / [registers] / } / thread row
  return regs ? 7 : 6;
}

std::string print(const Program& p) {
  std::ostringstream out;
  out << "PTX " << (p.name.empty() ? "unnamed" : p.name) << "\n{\n";
  for (const auto& [n, v] : p.locations) out << n << "=" << v << "; ";
  out << "\n";
  bool regs = false;
  for (const Thread& t : p.threads) regs |= !t.init.empty();
  if (regs) {
    for (const Thread& t : p.threads)
      for (const auto& [r, v] : t.init) out << t.name << ":" << r << "=" << v << "; ";
    out << "\n";
  }
  out << "}\n";
  // Columns padded to their widest cell.
  std::size_t rows = 0;
  for (const Thread& t : p.threads) rows = std::max(rows, t.code.size());
  std::vector<std::vector<std::string>> cells(p.threads.size());
  std::vector<std::size_t> width(p.threads.size());
  for (std::size_t k = 0; k < p.threads.size(); ++k) {
    const Thread& t = p.threads[k];
    cells[k].push_back(t.name + "@cta " + std::to_string(t.cta) + ",gpu " + std::to_string(t.gpu));
    for (std::size_t r = 0; r < rows; ++r) cells[k].push_back(r < t.code.size() ? print(t.code[r]) : "");
    for (const std::string& c : cells[k]) width[k] = std::max(width[k], c.size());
  }
  for (std::size_t r = 0; r <= rows; ++r) {
    for (std::size_t k = 0; k < p.threads.size(); ++k) {
      out << (k == 0 ? " " : " | ") << cells[k][r] << std::string(width[k] - cells[k][r].size(), ' ');
    }
    out << " ;\n";
  }
  out << print(p.condition) << "\n";
  return out.str();
}

std::vector<std::string> observed_names(const Program& p) {
  std::vector<std::string> out;
  for (const Term& t : terms(*p.condition.expr)) out.push_back(t.outcome_name());
  return out;
}

}  // namespace scopesim::litmus
