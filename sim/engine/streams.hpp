// Streams: CUDA's ordered queues of device work (kernel launches, copies,
// event records, event waits), as bookkeeping: which operation may start, and
// which operations a synchronize waits for. The run executes the operations.
//
// Invariant (CUDA programming guide, "Streams" and "Events"): operations of
// one stream start in the order they were enqueued, each after the one before
// it finished; an operation that waits for an event (cudaStreamWaitEvent)
// starts only after the operation last recorded into that event, at the time
// of the wait, finished. Streams are independent of each other otherwise:
// stream 0 behaves as a non-blocking stream (no implicit synchronization with
// the others; docs/limitations.md).
//
// What an operation or a synchronize learns is fixed by the host program, not
// by the interleaving: a synchronize joins every operation it covers, finished
// before it was called or not (semantics.md, "Synchronization": API edges), so
// the explorer can order the waiter after them (Step::learns) whenever they ran.
#pragma once
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <vector>

namespace scopesim {

using StreamId = std::uint32_t;
using StreamEventId = std::uint32_t;
using OpId = std::uint32_t;
inline constexpr OpId no_op = ~OpId{0};

enum class OpKind : std::uint8_t { kernel, copy, record, wait };

// Operations a synchronize or a kernel's end waits for: a few, kept inline.
using OpList = boost::container::small_vector<OpId, 4>;

class Streams {
 public:
  Streams();
  // Back to the state of a new Streams (stream 0 alone), keeping capacity.
  void clear();
  StreamId create_stream();
  StreamEventId create_event();
  std::size_t streams() const { return streams_; }
  std::size_t events() const { return recorded_.size(); }

  // Enqueues an operation; `event` is the event a record sets or a wait waits for.
  OpId enqueue(StreamId s, OpKind k, StreamEventId event = 0);
  // Operations that may start now and have not, in enqueue order (into `out`).
  void startable(std::vector<OpId>& out) const {
    out.clear();
    for (OpId id = 0; id < ops_.size(); ++id) {
      const Op& op = ops_[id];
      if (op.started) continue;
      if (op.after_stream != no_op && !ops_[op.after_stream].finished) continue;
      if (op.after_event != no_op && !ops_[op.after_event].finished) continue;
      out.push_back(id);
    }
  }
  void start(OpId op) {
    ops_[op].started = true;
    ++started_;
  }
  // Has every operation enqueued started?
  bool all_started() const { return started_ == ops_.size(); }
  void finish(OpId op) { ops_[op].finished = true; }
  bool finished(OpId op) const { return ops_[op].finished; }
  bool started(OpId op) const { return ops_[op].started; }
  // Does `a` finish before `b` starts, through stream order and event waits?
  bool ordered(OpId a, OpId b) const;
  // The operations `op` starts after (at most two): its stream predecessor
  // and, for a wait, the recording it waits for.
  struct Predecessors {
    OpId ops[2] = {no_op, no_op};
    unsigned count = 0;
    const OpId* begin() const { return ops; }
    const OpId* end() const { return ops + count; }
  };
  Predecessors predecessors(OpId id) const {
    Predecessors out;
    const Op& op = ops_[id];
    if (op.after_stream != no_op) out.ops[out.count++] = op.after_stream;
    if (op.after_event != no_op) out.ops[out.count++] = op.after_event;
    return out;
  }

  // What a synchronize waits for and learns: the operations enqueued so far,
  // finished or not (into `out`).
  void enqueued_in(StreamId s, OpList& out) const;      // cudaStreamSynchronize
  void enqueued(OpList& out) const;                     // cudaDeviceSynchronize
  void recorded(StreamEventId e, OpList& out) const;    // cudaEventSynchronize
  std::size_t size() const { return ops_.size(); }
  OpKind kind(OpId op) const { return ops_[op].kind; }
  StreamId stream(OpId op) const { return ops_[op].stream; }

 private:
  struct Op {
    OpKind kind;
    StreamId stream;
    OpId after_stream = no_op;  // previous operation of the stream
    OpId after_event = no_op;   // wait: the recording waited for
    bool started = false, finished = false;
  };
  std::vector<Op> ops_;
  // Per stream: its operations (the last one, the next one's predecessor).
  // Only [0, streams_) are this program's: the rest keep their capacity for
  // the next after clear(). Stream 0 is always there.
  std::vector<std::vector<OpId>> queues_;
  std::size_t streams_ = 0;
  std::vector<OpId> recorded_;        // per event: the last record operation
  std::size_t started_ = 0;           // of ops_, those started (start(), once each)
};

}  // namespace scopesim
