#include "tasks/vliw/kernel_builder.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "vliw_isa.h"

namespace kcraft::vliw {

namespace builder_detail {

constexpr int kMaxRegisterClassSize = 64;
enum Slot { kLs, kVec, kScl, kCtl };
constexpr std::array<int, 4> kSlotCapacity = {2, 1, 1, 1};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

struct Scheduled {
  std::string text;
  Slot slot = kCtl;
  std::vector<int> reads;
  std::vector<std::pair<int, int>> writes;  // register key, latency
  MemUse mem;
  bool ordered = false;
  bool last = false;  // a loop op: the last bundle of its block
};

Scheduled parse_op(const std::string& text, const MemUse& mem) {
  const isa::IsaSpec& spec = isa::vliw::spec();
  Scheduled s;
  s.text = text;
  s.mem = mem;
  const std::string t = trim(text);
  const auto sp = t.find_first_of(" \t");
  const std::string mnemonic = t.substr(0, sp);
  const isa::InstructionSpec* insn = spec.find_instruction(mnemonic);
  if (insn == nullptr) throw std::invalid_argument("kernel builder: unknown op " + mnemonic);
  std::vector<std::string> args;
  if (sp != std::string::npos) {
    std::string rest = t.substr(sp);
    size_t start = 0;
    while (start <= rest.size()) {
      const auto comma = rest.find(',', start);
      const std::string arg =
          trim(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (!arg.empty()) args.push_back(arg);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  if (insn->slot == "ls") {
    s.slot = kLs;
  } else if (insn->slot == "vec") {
    s.slot = kVec;
  } else if (insn->slot == "scl") {
    s.slot = kScl;
  } else {
    s.slot = kCtl;
  }
  const int latency = std::stoi(insn->latency);
  for (size_t i = 0; i < insn->operands.size() && i < args.size(); ++i) {
    const isa::OperandSpec& o = insn->operands[i];
    if (o.kind != isa::OperandKind::kRegister) continue;
    const isa::RegisterClass& rc = spec.register_classes[static_cast<size_t>(o.register_class)];
    const std::string& a = args[i];
    if (a.size() < 2 || std::tolower(static_cast<unsigned char>(a[0])) != rc.prefix[0]) {
      throw std::invalid_argument(
          fmt::format("kernel builder: '{}': operand {} is not a {}", text, i + 1, rc.noun));
    }
    const int number = std::stoi(a.substr(1));
    if (number < 0 || number >= kMaxRegisterClassSize)
      throw std::invalid_argument(
          fmt::format("kernel builder: '{}': operand {} has no register {}", text, i + 1, a));
    if (rc.prefix == "r" && number == 0) continue;  // r0 is constant
    const int key = o.register_class * kMaxRegisterClassSize + number;
    const bool exposed = rc.prefix == "v" || rc.prefix == "a";
    if (o.access != isa::Access::kWrite) s.reads.push_back(key);
    if (o.access != isa::Access::kRead) s.writes.emplace_back(key, exposed ? latency : 1);
  }
  const std::string& n = insn->name;
  s.ordered = n == "C_ACQ" || n == "C_REL" || n == "C_DMALD" || n == "C_DMAST";
  s.last = n == "C_LOOP" || n == "C_LOOPI";
  return s;
}

// Registers whose last write lands `n` bundles after a block's first bundle.
using InFlight = std::map<int, int>;

InFlight merge(const InFlight& a, const InFlight& b) {
  InFlight out = a;
  for (const auto& [k, v] : b) out[k] = std::max(out[k], v);
  return out;
}

struct Bundle {
  std::vector<const Scheduled*> ops;
  std::array<int, 4> used{};
};

}  // namespace builder_detail

using namespace builder_detail;  // NOLINT(google-build-using-namespace): this file's own helpers

struct KernelBuilder::Node {
  enum Kind { kOps, kLoop, kComment } kind = kOps;
  std::vector<Scheduled> ops;  // kOps
  std::string comment;         // kComment
  int64_t count = 0;           // kLoop
  int count_reg = -1;          // kLoop with the count in this scalar register (0 or more iterations)
  std::vector<std::unique_ptr<Node>> body;
};

namespace {

struct Emitter {
  unsigned banks;
  int* labels;
  unsigned loop_depth;
  std::vector<std::string> lines;

  // Packs one block; returns the registers still in flight after it.
  InFlight block(const std::vector<const Scheduled*>& ops, const InFlight& entry,
                 const std::vector<std::string>& comments, std::vector<std::string>* out) {
    // Per register key (class * kMaxRegisterClassSize + number): flat arrays, not maps, because this
    // runs for every block of every dry run of every loop of a kernel (most of a template's time).
    const size_t keys = isa::vliw::spec().register_classes.size() * kMaxRegisterClassSize;
    std::vector<int> ready(keys, 0), last_read(keys, 0);
    for (const auto& [r, at] : entry) ready[static_cast<size_t>(r)] = at;
    std::map<int, int> store_at, load_at;
    std::vector<Bundle> bundles;
    int max_t = -1, last_ordered = -1;
    std::vector<int> ls_banks_storage;
    for (const Scheduled* op : ops) {
      int t = 0;
      if (op->mem.fence || op->last) t = std::max(t, max_t);
      for (int r : op->reads) t = std::max(t, ready[static_cast<size_t>(r)]);
      for (const auto& [r, lat] : op->writes)
        t = std::max({t, ready[static_cast<size_t>(r)], last_read[static_cast<size_t>(r)]});
      for (int b : op->mem.reads) {
        if (store_at.count(b)) t = std::max(t, store_at[b] + 1);
      }
      for (int b : op->mem.writes) {
        if (store_at.count(b)) t = std::max(t, store_at[b] + 1);
        if (load_at.count(b)) t = std::max(t, load_at[b]);
      }
      if (op->ordered) t = std::max(t, last_ordered + 1);
      for (;; ++t) {
        if (static_cast<size_t>(t) >= bundles.size()) bundles.resize(static_cast<size_t>(t) + 1);
        Bundle& b = bundles[static_cast<size_t>(t)];
        if (b.used[op->slot] >= kSlotCapacity[op->slot]) continue;
        if (op->slot == kLs && b.used[kLs] == 1) {
          const Scheduled* other = nullptr;
          for (const Scheduled* o : b.ops) {
            if (o->slot == kLs) other = o;
          }
          if (op->mem.bank < 0 || other->mem.bank < 0 ||
              static_cast<unsigned>(op->mem.bank) % banks == static_cast<unsigned>(other->mem.bank) % banks)
            continue;
        }
        break;
      }
      Bundle& b = bundles[static_cast<size_t>(t)];
      b.ops.push_back(op);
      ++b.used[op->slot];
      max_t = std::max(max_t, t);
      for (int r : op->reads)
        last_read[static_cast<size_t>(r)] = std::max(last_read[static_cast<size_t>(r)], t);
      for (const auto& [r, lat] : op->writes) {
        ready[static_cast<size_t>(r)] = t + lat;
        last_read[static_cast<size_t>(r)] = 0;
      }
      for (int m : op->mem.reads) load_at[m] = std::max(load_at.count(m) ? load_at[m] : 0, t);
      for (int m : op->mem.writes) store_at[m] = std::max(store_at.count(m) ? store_at[m] : -1, t);
      if (op->ordered) last_ordered = t;
    }
    const int len = static_cast<int>(bundles.size());
    if (out != nullptr) {
      for (const auto& c : comments) out->push_back("; " + c);
      for (const Bundle& b : bundles) {
        std::vector<const Scheduled*> sorted = b.ops;
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const Scheduled* x, const Scheduled* y) { return x->slot < y->slot; });
        if (sorted.empty()) {
          out->push_back("    C_NOP");
        } else if (sorted.size() == 1) {
          out->push_back("    " + sorted[0]->text);
        } else {
          std::string line = "    { ";
          for (size_t i = 0; i < sorted.size(); ++i) line += (i ? " ; " : "") + sorted[i]->text;
          out->push_back(line + " }");
        }
      }
    }
    InFlight exit;
    for (size_t r = 0; r < ready.size(); ++r) {
      if (ready[r] > len) exit.emplace_hint(exit.end(), static_cast<int>(r), ready[r] - len);
    }
    return exit;
  }

  // Schedules a list of nodes; returns the registers in flight at its end. `out` null: dry run.
  InFlight nodes(const std::vector<std::unique_ptr<KernelBuilder::Node>>& list, InFlight state,
                 std::vector<std::string>* out, unsigned depth) {
    std::vector<const Scheduled*> pending;
    std::vector<std::string> comments;
    std::vector<std::unique_ptr<Scheduled>> loop_ops;  // loop ops made here
    auto flush = [&] {
      if (!pending.empty() || !comments.empty()) state = block(pending, state, comments, out);
      pending.clear();
      comments.clear();
    };
    for (size_t i = 0; i < list.size(); ++i) {
      const KernelBuilder::Node& n = *list[i];
      if (n.kind == KernelBuilder::Node::kComment) {
        if (!pending.empty()) flush();
        comments.push_back(n.comment);
        continue;
      }
      if (n.kind == KernelBuilder::Node::kOps) {
        for (const auto& op : n.ops) pending.push_back(&op);
        continue;
      }
      if (depth + 1 > loop_depth) throw std::logic_error("kernel builder: loops nest deeper than LOOP_DEPTH");
      const std::string label = fmt::format("loop_{}", (*labels)++);
      if (n.count_reg >= 0) {
        loop_ops.push_back(
            std::make_unique<Scheduled>(parse_op(fmt::format("C_LOOP r{}, {}", n.count_reg, label), {})));
      } else if (n.count > 4095) {
        loop_ops.push_back(std::make_unique<Scheduled>(parse_op(fmt::format("S_ADDI r15, r0, {}", 0), {})));
        // Counts above 4095 need S_LUI + S_ORI.
        loop_ops.back() =
            std::make_unique<Scheduled>(parse_op(fmt::format("S_LUI r15, {}", n.count >> 16), {}));
        pending.push_back(loop_ops.back().get());
        loop_ops.push_back(
            std::make_unique<Scheduled>(parse_op(fmt::format("S_ORI r15, r15, {}", n.count & 0xFFFF), {})));
        pending.push_back(loop_ops.back().get());
        loop_ops.push_back(std::make_unique<Scheduled>(parse_op("C_LOOP r15, " + label, {})));
      } else {
        loop_ops.push_back(
            std::make_unique<Scheduled>(parse_op(fmt::format("C_LOOPI {}, {}", n.count, label), {})));
      }
      pending.push_back(loop_ops.back().get());
      flush();
      // The body's entry: what is in flight before the loop, and at the end of an iteration.
      InFlight entry = state, exit;
      for (int round = 0;; ++round) {
        exit = nodes(n.body, entry, nullptr, depth + 1);
        const InFlight next = merge(entry, exit);  // grows monotonically, bounded by the latencies
        if (next == entry) break;
        if (round > 20) throw std::logic_error("kernel builder: loop schedule does not settle");
        entry = next;
      }
      exit = nodes(n.body, entry, out, depth + 1);
      if (out != nullptr) out->push_back(label + ":");
      state = n.count_reg >= 0 ? merge(entry, exit) : exit;  // a register count may skip the body
    }
    flush();
    return state;
  }
};

}  // namespace

KernelBuilder::KernelBuilder(unsigned dm_banks) : root_(std::make_unique<Node>()), banks_(dm_banks) {
  root_->kind = Node::kLoop;
  stack_.push_back(root_.get());
}

KernelBuilder::~KernelBuilder() = default;

void KernelBuilder::op(const std::string& text, const MemUse& mem) {
  Node* cur = stack_.back();
  if (cur->body.empty() || cur->body.back()->kind != Node::kOps) {
    cur->body.push_back(std::make_unique<Node>());
    cur->body.back()->kind = Node::kOps;
  }
  cur->body.back()->ops.push_back(parse_op(text, mem));
  ++op_count_;
}

void KernelBuilder::li(int rd, int64_t value, const std::string& symbol) {
  const std::string v = symbol.empty() ? std::to_string(value) : symbol;
  if (value >= -32768 && value <= 32767) {
    op(fmt::format("S_ADDI r{}, r0, {}", rd, v));
  } else {
    if (symbol.empty()) {
      op(fmt::format("S_LUI r{}, {}", rd, (value >> 16) & 0xFFFF));
      op(fmt::format("S_ORI r{}, r{}, {}", rd, rd, value & 0xFFFF));
    } else {
      op(fmt::format("S_LUI r{}, ({} >> 16) & 0xFFFF", rd, v));
      op(fmt::format("S_ORI r{}, r{}, {} & 0xFFFF", rd, rd, v));
    }
  }
}

void KernelBuilder::comment(const std::string& text) {
  auto n = std::make_unique<Node>();
  n->kind = Node::kComment;
  n->comment = text;
  stack_.back()->body.push_back(std::move(n));
}

void KernelBuilder::loop(int64_t count, const std::function<void()>& body) {
  if (count <= 0) return;
  if (count == 1) {
    body();
    return;
  }
  loop_node(count, -1, body);
}

void KernelBuilder::loop_reg(int count_reg, const std::function<void()>& body) {
  if (count_reg <= 0 || count_reg > 14) throw std::invalid_argument("loop_reg: the count must be in r1..r14");
  loop_node(0, count_reg, body);
}

void KernelBuilder::loop_node(int64_t count, int count_reg, const std::function<void()>& body) {
  auto n = std::make_unique<Node>();
  n->kind = Node::kLoop;
  n->count = count;
  n->count_reg = count_reg;
  Node* raw = n.get();
  stack_.back()->body.push_back(std::move(n));
  stack_.push_back(raw);
  body();
  stack_.pop_back();
  // A loop body may not end where an inner body ends.
  bool has_ops = false;
  for (const auto& c : raw->body) has_ops |= c->kind != Node::kComment;
  if (!has_ops || raw->body.back()->kind == Node::kLoop) {
    stack_.push_back(raw);
    op("C_NOP");
    stack_.pop_back();
  }
}

std::string KernelBuilder::text(unsigned loop_depth, size_t* words) const {
  int labels = label_counter_;
  Emitter e{banks_, &labels, loop_depth, {}};
  std::vector<std::string> out;
  e.nodes(root_->body, {}, &out, 0);
  std::string s;
  size_t count = 0;
  for (const auto& l : out) {
    s += l + "\n";
    if (l.rfind("    ", 0) == 0) count += 1 + static_cast<size_t>(std::count(l.begin(), l.end(), ';'));
  }
  if (words != nullptr) *words = count;
  return s;
}

// ---------------------------------------------------------------- shuffle networks

Labels shuffle_labels(const Labels& a, const Labels& b, unsigned mode) {
  const size_t n = a.size(), h = n / 2;
  Labels d(n);
  for (size_t i = 0; i < n; ++i) {
    switch (mode) {
      case 0:
        d[i] = i % 2 == 0 ? a[i / 2] : b[i / 2];
        break;
      case 1:
        d[i] = i % 2 == 0 ? a[h + i / 2] : b[h + i / 2];
        break;
      case 2:
        d[i] = i < h ? a[2 * i] : b[2 * (i - h)];
        break;
      default:
        d[i] = i < h ? a[2 * i + 1] : b[2 * (i - h) + 1];
        break;
    }
  }
  return d;
}

std::vector<Labels> apply_levels(std::vector<Labels> group, const std::vector<ShuffleLevel>& levels) {
  for (const ShuffleLevel& l : levels) {
    const size_t stride = size_t{1} << l.bit;
    std::vector<Labels> next(group.size());
    for (size_t i = 0; i < group.size(); ++i) {
      if (i & stride) continue;
      const Labels& a = group[i];
      const Labels& b = group[i | stride];
      const unsigned lo = l.kind == ShuffleLevel::kUnzip ? 2 : 0;
      next[i] = shuffle_labels(a, b, lo);
      next[i | stride] = shuffle_labels(a, b, lo + 1);
    }
    if (l.kind == ShuffleLevel::kZipLow) {
      std::vector<Labels> half;
      for (size_t i = 0; i < next.size(); ++i) {
        if (!(i & stride)) half.push_back(next[i]);
      }
      next = std::move(half);
    }
    group = std::move(next);
  }
  return group;
}

int find_labels(const std::vector<Labels>& group, const Labels& target) {
  for (size_t i = 0; i < group.size(); ++i) {
    bool ok = group[i].size() == target.size();
    for (size_t k = 0; ok && k < target.size(); ++k) ok = target[k] < 0 || group[i][k] == target[k];
    if (ok) return static_cast<int>(i);
  }
  return -1;
}

namespace {

std::vector<ShuffleLevel> search_shuffles(const std::vector<Labels>& group,
                                          const std::vector<Labels>& targets, unsigned max_depth) {
  struct Item {
    std::vector<Labels> g;
    std::vector<ShuffleLevel> levels;
  };
  auto done = [&](const std::vector<Labels>& g) {
    for (const auto& t : targets) {
      if (find_labels(g, t) < 0) return false;
    }
    return true;
  };
  std::deque<Item> queue;
  queue.push_back({group, {}});
  std::set<std::vector<Labels>> seen;
  while (!queue.empty()) {
    Item it = std::move(queue.front());
    queue.pop_front();
    if (done(it.g)) return it.levels;
    if (it.levels.size() >= max_depth) continue;
    unsigned bits = 0;
    while ((size_t{1} << bits) < it.g.size()) ++bits;
    for (unsigned bit = 0; bit < bits; ++bit) {
      for (auto kind : {ShuffleLevel::kZip, ShuffleLevel::kUnzip, ShuffleLevel::kZipLow}) {
        Item next{apply_levels(it.g, {{kind, bit}}), it.levels};
        next.levels.push_back({kind, bit});
        if (!seen.insert(next.g).second) continue;
        queue.push_back(std::move(next));
      }
    }
  }
  throw std::logic_error("no shuffle network reaches the target layout");
}

}  // namespace

std::vector<ShuffleLevel> plan_shuffles(const std::vector<Labels>& group, const std::vector<Labels>& targets,
                                        unsigned max_depth) {
  // The search is a pure function of its arguments, and a template asks it the same question for every
  // product of a kernel and every kernel of a shape: a third of `kcraft tasks`' time (which generates the
  // level-3 kernels to know whether they fit) was this search repeated. Remembered per process; the
  // distinct questions are a few per tile shape.
  using Key = std::tuple<std::vector<Labels>, std::vector<Labels>, unsigned>;
  static std::mutex mutex;
  static std::map<Key, std::vector<ShuffleLevel>> plans;
  Key key{group, targets, max_depth};
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (auto it = plans.find(key); it != plans.end()) return it->second;
  }
  auto levels = search_shuffles(group, targets, max_depth);  // throws when there is none (not remembered)
  const std::lock_guard<std::mutex> lock(mutex);
  plans.emplace(std::move(key), levels);
  return levels;
}

}  // namespace kcraft::vliw
