#include "sim/engine/streams.hpp"

#include <stdexcept>
#include <string>

namespace scopesim {

Streams::Streams() { create_stream(); }

void Streams::clear() {
  ops_.clear();
  started_ = 0;
  queues_[0].clear();
  streams_ = 1;
  recorded_.clear();
}

StreamId Streams::create_stream() {
  if (streams_ == queues_.size()) queues_.emplace_back();
  queues_[streams_].clear();
  return static_cast<StreamId>(streams_++);
}

StreamEventId Streams::create_event() {
  recorded_.push_back(no_op);
  return static_cast<StreamEventId>(recorded_.size() - 1);
}

OpId Streams::enqueue(StreamId s, OpKind k, StreamEventId event) {
  if (s >= streams_) throw std::invalid_argument("unknown stream " + std::to_string(s));
  if ((k == OpKind::record || k == OpKind::wait) && event >= recorded_.size())
    throw std::invalid_argument("unknown event " + std::to_string(event));
  Op op{k, s};
  std::vector<OpId>& queue = queues_[s];
  if (!queue.empty()) op.after_stream = queue.back();
  if (k == OpKind::wait) op.after_event = recorded_[event];  // never recorded: waits for nothing
  const OpId id = static_cast<OpId>(ops_.size());
  ops_.push_back(op);
  queue.push_back(id);
  if (k == OpKind::record) recorded_[event] = id;
  return id;
}

bool Streams::ordered(OpId a, OpId b) const {
  const Predecessors first = predecessors(b);
  std::vector<OpId> todo(first.begin(), first.end());
  std::vector<bool> seen(ops_.size(), false);
  while (!todo.empty()) {
    const OpId p = todo.back();
    todo.pop_back();
    if (p == a) return true;
    if (seen[p]) continue;
    seen[p] = true;
    for (OpId q : predecessors(p)) todo.push_back(q);
  }
  return false;
}

void Streams::enqueued_in(StreamId s, OpList& out) const {
  if (s >= streams_) throw std::invalid_argument("unknown stream " + std::to_string(s));
  out.clear();
  for (OpId op : queues_[s]) out.push_back(op);
}

void Streams::enqueued(OpList& out) const {
  out.clear();
  for (OpId id = 0, n = static_cast<OpId>(ops_.size()); id < n; ++id) out.push_back(id);
}

void Streams::recorded(StreamEventId e, OpList& out) const {
  if (e >= recorded_.size()) throw std::invalid_argument("unknown event " + std::to_string(e));
  out.clear();
  if (recorded_[e] != no_op) out.push_back(recorded_[e]);
}

}  // namespace scopesim
