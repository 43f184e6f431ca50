//===- Profile.cpp - time per node of compiled code -----------------------===//
//
// Code compiled with profile=true brackets each node, kernel and runtime
// call with stax_rt_clock_ns and stax_rt_profile_record; the records add
// up per name (the op and its location) until stax_rt_take_profile. A
// mutex per record is cheap next to a node's loops, and only profiling
// builds pay it.
//
//===----------------------------------------------------------------------===//
#include "Stax/Runtime/Runtime.h"
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace {
struct NodeTime {
  std::string name;
  int64_t calls = 0, totalNs = 0, bestNs = std::numeric_limits<int64_t>::max(),
          bytes = 0;
};

struct Profile {
  std::mutex mutex;
  std::vector<NodeTime> nodes; // in first-run order
  std::unordered_map<std::string, size_t> index;
};

Profile &profile() {
  static Profile p;
  return p;
}
} // namespace

int64_t stax_rt_clock_ns(void) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void stax_rt_profile_record(uintptr_t name, int64_t length, int64_t start,
                            int64_t bytes) {
  int64_t elapsed = stax_rt_clock_ns() - start;
  std::string key(reinterpret_cast<const char *>(name),
                  static_cast<size_t>(length));
  Profile &p = profile();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto [it, inserted] = p.index.try_emplace(key, p.nodes.size());
  if (inserted)
    p.nodes.push_back(NodeTime{key});
  NodeTime &t = p.nodes[it->second];
  ++t.calls;
  t.totalNs += elapsed;
  t.bestNs = std::min(t.bestNs, elapsed);
  t.bytes = bytes;
}

char *stax_rt_take_profile(void) {
  Profile &p = profile();
  std::string out;
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    for (const NodeTime &t : p.nodes)
      out += t.name + "\t" + std::to_string(t.calls) + "\t" +
             std::to_string(t.totalNs) + "\t" + std::to_string(t.bestNs) +
             "\t" + std::to_string(t.bytes) + "\n";
    p.nodes.clear();
    p.index.clear();
  }
  char *copy = static_cast<char *>(std::malloc(out.size() + 1));
  if (copy)
    std::memcpy(copy, out.c_str(), out.size() + 1);
  return copy;
}
