// The PTX scoped memory model of semantics.md, operationally: every thread
// keeps a view of what is causally before its next operation; reads may return
// any write that coherence and causality do not hide; strong writes choose
// their place in a per-location coherence list. Options turn it into the
// `sc` oracle (every read sees the newest write) or the `scope-blind` variant.
#pragma once
#include <vector>
#include <memory>

#include "sim/model/memory_model.hpp"

namespace scopesim {

struct PtxOptions {
  bool sequential = false;   // sc: reads return the newest write; writes go last
  bool scope_blind = false;  // every scope is sys
};

class PtxModel final : public MemoryModel {
 public:
  explicit PtxModel(PtxOptions o = {});
  ~PtxModel() override;
  std::string_view name() const override;
  void reset() override;

  ThreadId spawn(const Placement& where, long parent) override;
  ThreadId spawn_all(const std::vector<Placement>& where) override;
  void join(ThreadId waiter, ThreadId ended) override;
  void start_all(ThreadId first, std::uint32_t count, ThreadId from) override;
  void join_all(ThreadId waiter, ThreadId first, std::uint32_t count) override;
  using MemoryModel::readable;
  Readable readable(const MemOp& r, std::vector<WriteId>& out) override;
  void read(const MemOp& r, WriteId w) override;
  unsigned placements(const MemOp& w, std::vector<WriteId>* precedes) override;
  using MemoryModel::placements;
  WriteId write(const MemOp& w, unsigned placement, std::vector<WriteId>* unordered) override;
  using MemoryModel::write;
  void fence(ThreadId t, const PtxOp& f) override;
  Scope scope(Scope s) const override;
  void barrier(const std::vector<ThreadId>& participants) override;
  const WriteInfo& info(WriteId w) const override;
  bool morally_strong(const MemOp& r, WriteId w) const override;
  std::size_t writes_to(std::uintptr_t addr) const override;
  bool commutes(WriteId w, std::uint64_t family) override;
  std::uint64_t fingerprint() const override;
  // The entries of the lists the run's writes and views keep (the writes
  // each write's thread knew of its location, an RMW's chain and releases,
  // the writes a view observed): the part of the model's memory that the
  // run's history makes, for tests of it.
  std::size_t list_entries() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace scopesim
