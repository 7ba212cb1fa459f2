// LOG: the append-only trace of a BEM run, chained by SHA-256.
//
// An entry is (step, kind, payload): the logical step it belongs to, a
// caller-defined kind tag and opaque payload bytes. Neither step nor kind is
// interpreted by the log.
//
// Serialization of an entry (all integers little-endian, fixed width):
//
//   serialize(e) = u64(step) || u32(kind) || u64(payload size) || payload
//
// Hash chain (REFERENCE.md section 1, H_{k+1} = hash(H_k || entry_k)):
//
//   H_0     = SHA-256(trace_log_genesis), the 28 ASCII bytes "bem trace log v1 genesis H_0"
//   H_{k+1} = SHA-256(H_k || serialize(entry_k))
//
// head() is H_n for a log of n entries. Each H_{k+1} depends on every entry up
// to k and on their order, so altering, removing, inserting or reordering
// entries changes every later H. verify() recomputes the chain from H_0 and
// reports the first entry whose recorded H_{k+1} does not match. An internally
// consistent log can still be a truncated or wholly rewritten one: compare its
// head() (or head_at(n)) with a copy kept elsewhere to rule that out.
//
// Segments: entries are grouped into consecutive segments of
// segment_entries() entries (the last one may be partial). segment_root(s) is
// the Merkle root (hash.hpp: RFC 6962, prefixes 0x00/0x01, promotion) over the
// entry digests SHA-256(serialize(e)) of segment s, so one entry can be proved
// to belong to a segment with a log-size path without replaying the chain.
//
// Image (image() / load()): the log as bytes, for storage and for checking a
// copy that came from elsewhere:
//
//   "BEMTLOG1" (8 bytes) || u64(n) || for k in 0..n-1: serialize(entry_k) || H_{k+1}
//
// load() checks only the structure (magic, lengths, no trailing bytes) and
// keeps the recorded H_{k+1}, so verify() then says whether the copy was
// altered. Nothing in the class changes an entry once appended: entry(k)
// gives const access and the only mutator is append.
#pragma once

#include <bem/machine/hash.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

BEM_NAMESPACE_BEGIN

/// One record of the trace.
struct trace_entry {
  std::uint64_t step = 0;             ///< logical step index
  std::uint32_t kind = 0;             ///< caller-defined tag
  std::vector<std::uint8_t> payload;  ///< opaque bytes

  friend bool operator==(const trace_entry&, const trace_entry&) = default;
};

/// The text whose SHA-256 is H_0.
inline constexpr std::string_view trace_log_genesis = "bem trace log v1 genesis H_0";

/// The first 8 bytes of an image.
inline constexpr std::string_view trace_log_image_magic = "BEMTLOG1";

/// Segment size used when none is given.
inline constexpr std::size_t trace_log_default_segment_entries = 256;

namespace detail {
inline void put_le(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

inline std::uint64_t get_le(std::span<const std::uint8_t> in, std::size_t at, int bytes) noexcept {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t{in[at + static_cast<std::size_t>(i)]} << (8 * i);
  return v;
}

/// Bytes of serialize(e) before the payload: u64 step, u32 kind, u64 size.
inline constexpr std::size_t trace_entry_header_bytes = 8 + 4 + 8;
}  // namespace detail

/// Appends serialize(e) to `out`.
inline void serialize_trace_entry(const trace_entry& e, std::vector<std::uint8_t>& out) {
  out.reserve(out.size() + detail::trace_entry_header_bytes + e.payload.size());
  detail::put_le(out, e.step, 8);
  detail::put_le(out, e.kind, 4);
  detail::put_le(out, e.payload.size(), 8);
  out.insert(out.end(), e.payload.begin(), e.payload.end());
}

/// serialize(e) as a new byte string.
inline std::vector<std::uint8_t> serialize_trace_entry(const trace_entry& e) {
  std::vector<std::uint8_t> out;
  serialize_trace_entry(e, out);
  return out;
}

/// H_0.
inline sha256_digest trace_log_genesis_hash() noexcept { return sha256(trace_log_genesis); }

/// H_{k+1} from H_k and entry k.
inline sha256_digest trace_chain_next(const sha256_digest& previous, const trace_entry& e) {
  return sha256_hasher{}.update(previous).update(serialize_trace_entry(e)).final();
}

/// The append-only, hash-chained trace (see the top of this file).
class trace_log {
 public:
  /// verify()'s answer when every entry matches.
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

  /// An empty log (head() == H_0) with segments of `segment_entries` (>= 1).
  explicit trace_log(std::size_t segment_entries = trace_log_default_segment_entries)
      : segment_entries_(segment_entries), genesis_(trace_log_genesis_hash()) {
    if (segment_entries == 0) throw std::invalid_argument("trace_log: segment_entries must be at least 1");
  }

  /// Copies hold every entry; a moved-from log is empty (head() == H_0).
  trace_log(const trace_log& other) : segment_entries_(other.segment_entries_), genesis_(other.genesis_) {
    for (std::size_t k = 0; k < other.size_; ++k) push(other.record_at(k));
  }
  trace_log(trace_log&& other) noexcept
      : segment_entries_(other.segment_entries_),
        genesis_(other.genesis_),
        root_(std::move(other.root_)),
        depth_(std::exchange(other.depth_, 0)),
        size_(std::exchange(other.size_, 0)) {}
  trace_log& operator=(const trace_log& other) {
    if (this != &other) *this = trace_log(other);
    return *this;
  }
  trace_log& operator=(trace_log&& other) noexcept {
    segment_entries_ = other.segment_entries_;
    genesis_ = other.genesis_;
    root_ = std::move(other.root_);
    depth_ = std::exchange(other.depth_, 0);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }
  ~trace_log() = default;

  /// Appends one entry and returns the new head H_{n+1}. Cost: O(payload)
  /// and, once per 256 entries, the allocation of a chunk for the next 256
  /// plus at most one tree node per level (see `push`): bounded by a
  /// constant, however long the log (no table is ever copied to grow it).
  /// Strong exception guarantee: if it throws, the log is as it was.
  sha256_digest append(trace_entry e) {
    const std::vector<std::uint8_t> bytes = serialize_trace_entry(e);
    const sha256_digest next = sha256_hasher{}.update(head()).update(bytes).final();
    push({std::move(e), sha256(bytes), next});
    return next;
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  /// H_n, n = size(): H_0 for an empty log.
  const sha256_digest& head() const noexcept { return size_ == 0 ? genesis_ : record_at(size_ - 1).chain; }

  /// The recorded H_n for 0 <= n <= size() (the head after the first n entries).
  const sha256_digest& head_at(std::size_t n) const {
    if (n > size()) throw std::out_of_range("trace_log::head_at: n exceeds size()");
    return n == 0 ? genesis_ : record_at(n - 1).chain;
  }

  /// Entry k (read only), 0 <= k < size().
  const trace_entry& entry(std::size_t k) const {
    if (k >= size()) throw std::out_of_range("trace_log::entry: index out of range");
    return record_at(k).entry;
  }

  /// SHA-256(serialize(entry k)): the Merkle leaf of entry k.
  const sha256_digest& entry_digest(std::size_t k) const {
    if (k >= size()) throw std::out_of_range("trace_log::entry_digest: index out of range");
    return record_at(k).digest;
  }

  /// Recomputes the chain from H_0 and returns the index k of the first entry
  /// whose recorded H_{k+1} differs from SHA-256(H_k || serialize(entry k)),
  /// with H_k the recomputed value; npos when all match.
  std::size_t verify() const {
    sha256_digest h = genesis_;
    std::vector<std::uint8_t> bytes;
    for (std::size_t k = 0; k < size_; ++k) {
      bytes.clear();
      serialize_trace_entry(record_at(k).entry, bytes);
      h = sha256_hasher{}.update(h).update(bytes).final();
      if (h != record_at(k).chain) return k;
    }
    return npos;
  }

  std::size_t segment_entries() const noexcept { return segment_entries_; }

  /// Number of segments, ceil(size() / segment_entries()); the last may be partial.
  std::size_t segment_count() const noexcept { return (size() + segment_entries_ - 1) / segment_entries_; }

  /// Merkle root over the entry digests of segment s (entries
  /// [s * S, min((s + 1) * S, size()))), s < segment_count(). The root of the
  /// partial last segment changes as entries are appended; full segments' do not.
  sha256_digest segment_root(std::size_t segment) const {
    if (segment >= segment_count()) throw std::out_of_range("trace_log::segment_root: no such segment");
    const std::size_t begin = segment * segment_entries_;
    const std::size_t count = std::min(segment_entries_, size() - begin);
    std::vector<sha256_digest> leaves(count);
    for (std::size_t i = 0; i < count; ++i) leaves[i] = record_at(begin + i).digest;
    return merkle_root(std::span<const sha256_digest>(leaves));
  }

  /// The log as bytes (format at the top of this file).
  std::vector<std::uint8_t> image() const {
    std::vector<std::uint8_t> out(trace_log_image_magic.begin(), trace_log_image_magic.end());
    detail::put_le(out, size_, 8);
    for (std::size_t k = 0; k < size_; ++k) {
      const record& r = record_at(k);
      serialize_trace_entry(r.entry, out);
      out.insert(out.end(), r.chain.begin(), r.chain.end());
    }
    return out;
  }

  /// A log from an image. Throws std::invalid_argument (naming the byte
  /// offset) if the bytes are not an image; does NOT check the chain: call
  /// verify() on the result.
  static trace_log load(std::span<const std::uint8_t> image,
                        std::size_t segment_entries = trace_log_default_segment_entries) {
    trace_log log(segment_entries);
    const auto fail = [](const char* what, std::size_t at) {
      return std::invalid_argument(std::string("trace_log::load: ") + what + " at byte " + std::to_string(at));
    };
    constexpr std::size_t magic_bytes = trace_log_image_magic.size();
    if (image.size() < magic_bytes + 8) throw fail("image shorter than its header", 0);
    for (std::size_t i = 0; i < magic_bytes; ++i)
      if (image[i] != static_cast<std::uint8_t>(trace_log_image_magic[i])) throw fail("bad magic", i);
    const std::uint64_t count = detail::get_le(image, magic_bytes, 8);
    std::size_t at = magic_bytes + 8;
    constexpr std::size_t min_record = detail::trace_entry_header_bytes + 32;
    if (count > (image.size() - at) / min_record) throw fail("entry count larger than the image can hold", magic_bytes);
    for (std::uint64_t k = 0; k < count; ++k) {
      if (image.size() - at < min_record) throw fail("truncated entry", at);
      trace_entry e;
      e.step = detail::get_le(image, at, 8);
      e.kind = static_cast<std::uint32_t>(detail::get_le(image, at + 8, 4));
      const std::uint64_t payload_size = detail::get_le(image, at + 12, 8);
      at += detail::trace_entry_header_bytes;
      if (payload_size > image.size() - at - 32) throw fail("payload size exceeds the image", at - 8);
      const auto payload = image.subspan(at, static_cast<std::size_t>(payload_size));
      e.payload.assign(payload.begin(), payload.end());
      at += payload.size();
      sha256_digest recorded{};
      for (std::size_t i = 0; i < 32; ++i) recorded[i] = image[at + i];
      at += 32;
      const sha256_digest digest = sha256(serialize_trace_entry(e));
      log.push({std::move(e), digest, recorded});
    }
    if (at != image.size()) throw fail("trailing bytes after the last entry", at);
    return log;
  }

 private:
  /// Entry k with its digest SHA-256(serialize(entry k)) and its recorded
  /// H_{k+1}: one record, so an append adds all three or none.
  struct record {
    trace_entry entry;
    sha256_digest digest;
    sha256_digest chain;
  };
  /// Records live in a tree of fixed fan-out: leaves hold 256 records,
  /// inner nodes 256 children, and entry k's path is the base-256 digits of
  /// k. Every node is reserved in full when created, so no append moves or
  /// copies earlier records or pointers, and a full tree grows by a new root
  /// above it: the cost of an append never depends on the log's length (a
  /// vector of chunks would copy its table, O(size / 256), now and then).
  static constexpr std::size_t fanout_bits = 8, fanout = std::size_t{1} << fanout_bits;
  struct node {
    std::vector<record> records;                  // a leaf's
    std::vector<std::unique_ptr<node>> children;  // an inner node's
  };

  static std::unique_ptr<node> make_node(bool leaf) {
    auto n = std::make_unique<node>();
    if (leaf)
      n->records.reserve(fanout);
    else
      n->children.reserve(fanout);
    return n;
  }

  const record& record_at(std::size_t k) const noexcept {
    const node* n = root_.get();
    for (std::size_t level = depth_ - 1; level > 0; --level) n = n->children[(k >> (fanout_bits * level)) % fanout].get();
    return n->records[k % fanout];
  }

  void push(record r) {
    static_assert(std::is_nothrow_move_constructible_v<record>);
    // May throw at each allocation; what it has added by then (an empty
    // node, a taller root over the same records) leaves every entry where
    // it was, so the log is as it was.
    if (!root_) {
      root_ = make_node(true);
      depth_ = 1;
    } else if (depth_ < sizeof(std::size_t) * 8 / fanout_bits && (size_ >> (fanout_bits * depth_)) != 0) {
      auto root = make_node(false);
      root->children.push_back(std::move(root_));
      root_ = std::move(root);
      ++depth_;
    }
    node* n = root_.get();
    for (std::size_t level = depth_ - 1; level > 0; --level) {
      const std::size_t i = (size_ >> (fanout_bits * level)) % fanout;
      if (i == n->children.size()) n->children.push_back(make_node(level == 1));  // within the reserved capacity
      n = n->children[i].get();
    }
    n->records.push_back(std::move(r));  // within the reserved capacity: noexcept
    ++size_;
  }

  std::size_t segment_entries_;
  sha256_digest genesis_;
  std::unique_ptr<node> root_;
  std::size_t depth_ = 0;  ///< levels of the tree, leaves included; 0 while empty
  std::size_t size_ = 0;
};

BEM_NAMESPACE_END
