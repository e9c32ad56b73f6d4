#include "sim/litmus/cuda.hpp"

#include <sstream>

#include "sim/litmus/layout.hpp"

namespace scopesim::litmus {

namespace {

std::string ident(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

std::string reg_var(const std::string& r) { return "reg_" + r; }

std::string operand(const Operand& o) {
  return o.reg ? "(unsigned)" + reg_var(*o.reg) : std::to_string(static_cast<std::uint32_t>(o.value)) + "u";
}

std::string signed_operand(const Operand& o) { return o.reg ? reg_var(*o.reg) : "(" + std::to_string(o.value) + ")"; }

std::string qualifiers(const Instr& in) {
  if (in.is_volatile) return ".volatile";
  if (in.sem == Sem::weak) return ".weak";
  return "." + std::string(name(in.sem)) + "." + std::string(name(in.scope));
}

// atom/red operation with its PTX type; sub is add of the negation.
std::string rmw_suffix(RmwOp op) {
  switch (op) {
    case RmwOp::add:
    case RmwOp::sub: return ".add.u32";
    case RmwOp::and_: return ".and.b32";
    case RmwOp::or_: return ".or.b32";
    case RmwOp::xor_: return ".xor.b32";
    case RmwOp::min: return ".min.s32";
    case RmwOp::max: return ".max.s32";
    case RmwOp::exch: return ".exch.b32";
    case RmwOp::cas: return ".cas.b32";
    case RmwOp::inc: return ".inc.u32";
    case RmwOp::dec: return ".dec.u32";
  }
  return "";
}

class Emitter {
 public:
  explicit Emitter(const Program& p) : p_(p), l_(layout(p)) {}

  std::string source() {
    out_ << "// PTX litmus test " << p_.name << (p_.file.empty() ? "" : " (" + p_.file + ")")
         << ", written by `scopesim litmus --emit-cuda`.\n"
         << "// " << print(p_.condition) << "\n"
         << "// Placement: " << l_.grid << " CTA(s) of " << l_.block
         << " test thread(s); every test thread is one warp (lane 0 performs the memory instructions).\n"
         << "// Self-contained: no includes, one function.\n\n"
         << "__device__ void litmus_instance(unsigned cta, unsigned thread";
    for (const auto& [name, v] : l_.locations) out_ << ", unsigned* loc_" << ident(name);
    out_ << ", unsigned* results) {\n"
         << "  const unsigned lane = threadIdx.x & 31u;\n"
         << "  (void)lane;\n";
    std::size_t result = 0;
    for (std::size_t k = 0; k < p_.threads.size(); ++k) thread(k, result);
    out_ << "}\n";
    return out_.str();
  }

 private:
  void line(const std::string& s) { out_ << "    " << s << "\n"; }

  void thread(std::size_t k, std::size_t& result) {
    const Thread& t = p_.threads[k];
    out_ << "  if (cta == " << t.cta << "u && thread == " << l_.rank[k] << "u) {  // " << t.name << "\n";
    std::set<std::string> regs;
    for (const Instr& in : t.code) {
      if (!in.reg.empty()) regs.insert(in.reg);
      for (const Operand* o : {&in.a, &in.b})
        if (o->reg) regs.insert(*o->reg);
    }
    for (const std::string& r : l_.results[k]) regs.insert(r);
    for (const std::string& r : regs) {
      auto it = t.init.find(r);
      line("int " + reg_var(r) + " = " + std::to_string(it == t.init.end() ? 0 : it->second) + ";");
    }
    for (const Instr& in : t.code) instruction(t, in);
    line("if (lane == 0) {");
    for (const std::string& r : l_.results[k])
      line("  results[" + std::to_string(result++) + "] = (unsigned)" + reg_var(r) + ";  // " + t.name + ":" + r);
    line("}");
    line("return;");
    out_ << "  }\n";
  }

  std::string label(const Thread& t, const std::string& l) { return t.name + "_" + ident(l); }

  // Lane 0 performs `asm`; every lane then holds lane 0's value of `reg`.
  void lane0(const std::string& code, const std::string& reg = "") {
    line("if (lane == 0) " + code);
    if (!reg.empty()) line(reg_var(reg) + " = __shfl_sync(0xffffffffu, " + reg_var(reg) + ", 0);");
  }

  void instruction(const Thread& t, const Instr& in) {
    const std::string loc = in.loc.empty() ? "" : "loc_" + ident(in.loc);
    const std::string comment = "  // " + print(in);
    switch (in.op) {
      case Op::ld:
        lane0("asm volatile(\"ld" + qualifiers(in) + ".global.u32 %0, [%1];\" : \"=r\"(" + reg_var(in.reg) + ") : \"l\"(" +
                  loc + ") : \"memory\");" + comment,
              in.reg);
        break;
      case Op::st:
        lane0("asm volatile(\"st" + qualifiers(in) + ".global.u32 [%0], %1;\" :: \"l\"(" + loc + "), \"r\"(" +
              operand(in.a) + ") : \"memory\");" + comment);
        break;
      case Op::atom:
      case Op::red: {
        const std::string v = in.rmw == RmwOp::sub ? "0u - " + operand(in.a) : operand(in.a);
        const bool as_red = in.op == Op::red && (in.sem == Sem::relaxed || in.sem == Sem::release);
        if (as_red) {
          lane0("asm volatile(\"red" + qualifiers(in) + ".global" + rmw_suffix(in.rmw) + " [%0], %1;\" :: \"l\"(" + loc +
                "), \"r\"(" + v + ") : \"memory\");" + comment);
          break;
        }
        // red has no .acquire/.acq_rel: an atom whose result goes to a scratch register is the same operation.
        const bool cas = in.rmw == RmwOp::cas;
        std::string code;
        if (in.op == Op::atom)
          code = "asm volatile(\"atom" + qualifiers(in) + ".global" + rmw_suffix(in.rmw) + " %0, [%1], %2" +
                 (cas ? ", %3" : "") + ";\" : \"=r\"(" + reg_var(in.reg) + ") : \"l\"(" + loc + "), \"r\"(" + v + ")" +
                 (cas ? ", \"r\"(" + operand(in.b) + ")" : "") + " : \"memory\");" + comment;
        else
          code = "asm volatile(\"{ .reg .b32 dropped; atom" + qualifiers(in) + ".global" + rmw_suffix(in.rmw) +
                 " dropped, [%0], %1; }\" :: \"l\"(" + loc + "), \"r\"(" + v + ") : \"memory\");" + comment;
        lane0(code, in.op == Op::atom ? in.reg : "");
        break;
      }
      case Op::fence:
        lane0("asm volatile(\"fence." + std::string(name(in.sem)) + "." + std::string(name(in.scope)) +
              ";\" ::: \"memory\");" + comment);
        break;
      case Op::bar_sync:
      case Op::bar_arrive: {
        const std::string count = in.has_count ? "32u * " + operand(in.b)
                                               : std::to_string(32 * l_.cta_size[t.cta]) + "u";
        line("asm volatile(\"bar.cta." + std::string(in.op == Op::bar_sync ? "sync" : "arrive") +
             " %0, %1;\" :: \"r\"(" + operand(in.a) + "), \"r\"(" + count + ") : \"memory\");" + comment);
        break;
      }
      case Op::local: {
        static const char* ops[] = {"+", "-", "*", "/"};
        const std::string op = ops[static_cast<int>(in.local)];
        // Wrapping 32-bit arithmetic, signed division: as the simulator computes them.
        if (in.local == LocalOp::div)
          line(reg_var(in.reg) + " = " + signed_operand(in.a) + " / " + signed_operand(in.b) + ";" + comment);
        else
          line(reg_var(in.reg) + " = (int)(" + operand(in.a) + " " + op + " " + operand(in.b) + ");" + comment);
        break;
      }
      case Op::label: out_ << "  " << label(t, in.label) << ":;\n"; break;
      case Op::jump: line("goto " + label(t, in.label) + ";"); break;
      case Op::branch: {
        static const char* cmps[] = {"==", "!=", "<", "<=", ">", ">="};
        line("if (" + signed_operand(in.a) + " " + cmps[static_cast<int>(in.cmp)] + " " + signed_operand(in.b) +
             ") goto " + label(t, in.label) + ";" + comment);
        break;
      }
    }
  }

  const Program& p_;
  Layout l_;
  std::ostringstream out_;
};

}  // namespace

std::string cuda_source(const Program& p) { return Emitter(p).source(); }

nlohmann::json cuda_metadata(const Program& p) {
  const Layout l = layout(p);
  nlohmann::json j;
  j["name"] = p.name;
  j["file"] = p.file;
  j["function"] = "litmus_instance";
  j["ctas"] = l.grid;
  j["threads_per_cta"] = l.block;
  j["lanes_per_thread"] = 32;
  j["condition"] = print(p.condition);
  j["quantifier"] = std::string(name(p.condition.quantifier));
  nlohmann::json locs = nlohmann::json::array();
  for (const auto& [n, v] : l.locations) locs.push_back({{"name", n}, {"parameter", "loc_" + ident(n)}, {"init", v}});
  j["locations"] = locs;
  nlohmann::json threads = nlohmann::json::array(), results = nlohmann::json::array();
  for (std::size_t k = 0; k < p.threads.size(); ++k) {
    threads.push_back({{"name", p.threads[k].name}, {"cta", p.threads[k].cta}, {"thread", l.rank[k]}});
    for (const std::string& r : l.results[k]) results.push_back(p.threads[k].name + ":" + r);
  }
  j["threads"] = threads;
  j["results"] = results;
  return j;
}

}  // namespace scopesim::litmus
