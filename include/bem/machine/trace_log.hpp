// LOG: the append-only trace of a BEM run, chained by SHA-256, kept in memory
// or streamed to a file in segments.
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
// entries changes every later H. verify() recomputes the chain and reports
// the first entry whose recorded H_{k+1} does not match. An internally
// consistent log can still be a truncated or wholly rewritten one: compare its
// head() (or head_at(n)) with a copy kept elsewhere to rule that out.
//
// Segments: entries are grouped into consecutive segments of
// segment_entries() = S entries (the last one may be partial). segment_root(s)
// is the Merkle root (hash.hpp: RFC 6962, prefixes 0x00/0x01, promotion) over
// the entry digests SHA-256(serialize(e)) of segment s, so one entry can be
// proved to belong to a segment with a log-size path without replaying the
// chain.
//
// Two modes, one interface (append, head, verify, entry, size):
//
// - In memory (trace_log(S), or trace_log_options with no file): every entry
//   is kept; image() / load() turn the log into bytes and back:
//
//     "BEMTLOG1" (8 bytes) || u64(n) || for k in 0..n-1: serialize(entry_k) || H_{k+1}
//
//   load() checks only the structure (magic, lengths, no trailing bytes) and
//   keeps the recorded H_{k+1}, so verify() then says whether the copy was
//   altered.
//
// - Streaming (trace_log_options{S, "path"}): the log writes a trace file
//   (below) as it goes and holds in memory only the entries of its last
//   segment, the running head and a Merkle accumulator: memory_bytes() is
//   bounded by S and the largest entry, whatever the number of entries.
//   Entries of earlier segments are on disk only: entry(k), head_at(k) and
//   segment_root(s) answer for the retained ones (retained_begin() onwards)
//   and throw std::out_of_range, naming the file, for the others. verify()
//   checks the retained entries; verify_trace_file (trace_file.hpp) checks
//   the file.
//
// Trace file, version 1 (integers little-endian; offsets in bytes):
//
//   file header, 52 bytes:
//     0  8  magic "BEMTRACE"
//     8  4  u32 version = 1
//    12  8  u64 S, entries per segment (>= 1)
//    20 32  SHA-256 of bytes 0..19
//   then one segment record per segment, s = 0, 1, ..., in order:
//     0  4  tag "SEGM"
//     4  8  u64 s, the segment's index
//    12  8  u64 c, its entry count: S, or 1..S for the last segment
//    20  8  u64 s * S, the index of its first entry
//    28  8  u64 the step field of its first entry
//    36 32  Merkle root over the entry digests of the segment (segment_root(s))
//    68 32  H at the segment's end, H_{s*S + c}
//   100 ..  its c entries, each serialize(entry_k) || H_{k+1}
//   then the end record, 52 bytes, written by close():
//     0  4  tag "ENDL"
//     4  8  u64 n, the number of entries
//    12  8  u64 the number of segments, ceil(n / S)
//    20 32  H_n, the final head
//   and nothing after it.
//
// Append-only: a segment is written, with one write(2), when its S-th entry
// is appended; close() writes the partial last segment (if any) and the end
// record. Nothing written is ever rewritten. If a write fails the file is cut
// back to its last complete record (ftruncate) and append / close throw
// std::system_error naming the file, the log as it was (strong guarantee):
// the call may be retried. Should the cut itself fail, the log refuses
// further appends.
//
// fsync policy (trace_fsync): on_close (default) fsyncs the file and its
// folder once, in close(); every_segment also after the header and each
// segment; never leaves write-back to the kernel.
//
// Crash behaviour: a process that dies loses the entries of its open segment
// (at most S - 1, never written) and, after a power loss, what the fsync
// policy had not yet made durable. What is on disk is then a valid prefix
// followed by, at worst, a torn record. The verifier never accepts such a
// file: a torn record is reported as truncated (with the record and entry
// it tears), and a file cut exactly at a record boundary lacks the end
// record and is reported as such, together with the valid prefix (entries,
// segments and head). A trace_log destroyed without close() closes itself;
// if that fails the destructor cannot throw, the end record is missing and
// the verifier says so.
#pragma once

#include <bem/machine/hash.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

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

/// The first 8 bytes of a trace file, and its version.
inline constexpr std::string_view trace_file_magic = "BEMTRACE";
inline constexpr std::uint32_t trace_file_version = 1;

/// Segment size used when none is given.
inline constexpr std::size_t trace_log_default_segment_entries = 256;

/// When a streaming log calls fsync (see the top of this file).
enum class trace_fsync : std::uint8_t {
  never,          ///< write-back is left to the kernel
  on_close,       ///< close() fsyncs the file and its folder once
  every_segment,  ///< also after the header and after each segment
};

/// How a trace_log keeps its entries.
struct trace_log_options {
  std::size_t segment_entries = trace_log_default_segment_entries;  ///< S, >= 1
  std::string file;  ///< empty: in memory; else stream to this file (created, or truncated if it exists)
  trace_fsync fsync = trace_fsync::on_close;
};

namespace detail {
inline void put_le(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

inline void store_le(std::uint8_t* at, std::uint64_t v, int bytes) noexcept {
  for (int i = 0; i < bytes; ++i) at[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

inline std::uint64_t get_le(std::span<const std::uint8_t> in, std::size_t at, int bytes) noexcept {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t{in[at + static_cast<std::size_t>(i)]} << (8 * i);
  return v;
}

/// Bytes of serialize(e) before the payload: u64 step, u32 kind, u64 size.
inline constexpr std::size_t trace_entry_header_bytes = 8 + 4 + 8;

/// Record sizes and tags of the trace file (layout at the top of this file).
inline constexpr std::size_t trace_file_header_bytes = 8 + 4 + 8 + 32;
inline constexpr std::size_t trace_segment_header_bytes = 4 + 4 * 8 + 32 + 32;
inline constexpr std::size_t trace_end_record_bytes = 4 + 8 + 8 + 32;
inline constexpr std::string_view trace_segment_tag = "SEGM";
inline constexpr std::string_view trace_end_tag = "ENDL";

/// A POSIX file descriptor, closed on destruction.
class trace_file_descriptor {
 public:
  trace_file_descriptor() noexcept = default;
  explicit trace_file_descriptor(int fd) noexcept : fd_(fd) {}
  trace_file_descriptor(trace_file_descriptor&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  trace_file_descriptor& operator=(trace_file_descriptor&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  ~trace_file_descriptor() { reset(); }
  int get() const noexcept { return fd_; }
  /// close(2); its error, if any (0 if there was nothing to close).
  int reset() noexcept {
    const int fd = std::exchange(fd_, -1);
    return fd >= 0 && ::close(fd) != 0 ? errno : 0;
  }

 private:
  int fd_ = -1;
};

[[noreturn]] inline void throw_file_error(int error, const std::string& what, const std::string& path) {
  throw std::system_error(error, std::generic_category(), "trace log file " + path + ": " + what);
}

/// write(2) until every byte is written (short writes and EINTR retried).
inline void write_all(int fd, std::span<const std::uint8_t> bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ::ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw_file_error(n < 0 ? errno : EIO, "write failed", path);
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
}

inline void fsync_or_throw(int fd, const std::string& path) {
  if (::fsync(fd) != 0) throw_file_error(errno, "fsync failed", path);
}

/// fsync of the folder holding `path`, so that the file's directory entry is
/// durable too.
inline void fsync_folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const trace_file_descriptor fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) throw_file_error(errno, "cannot open its folder " + folder + " to fsync it", path);
  fsync_or_throw(fd.get(), folder);
}

/// The 52-byte file header for segments of S entries.
inline std::vector<std::uint8_t> trace_file_header(std::uint64_t segment_entries) {
  std::vector<std::uint8_t> out(trace_file_magic.begin(), trace_file_magic.end());
  put_le(out, trace_file_version, 4);
  put_le(out, segment_entries, 8);
  const sha256_digest check = sha256(std::span<const std::uint8_t>(out));
  out.insert(out.end(), check.begin(), check.end());
  return out;
}

/// Fills the 100-byte segment header at `at`.
inline void store_segment_header(std::uint8_t* at, std::uint64_t index, std::uint64_t count, std::uint64_t first_entry,
                                 std::uint64_t first_step, const sha256_digest& root,
                                 const sha256_digest& head) noexcept {
  for (std::size_t i = 0; i < 4; ++i) at[i] = static_cast<std::uint8_t>(trace_segment_tag[i]);
  store_le(at + 4, index, 8);
  store_le(at + 12, count, 8);
  store_le(at + 20, first_entry, 8);
  store_le(at + 28, first_step, 8);
  std::copy(root.begin(), root.end(), at + 36);
  std::copy(head.begin(), head.end(), at + 68);
}
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

  /// An empty in-memory log (head() == H_0) with segments of `segment_entries` (>= 1).
  explicit trace_log(std::size_t segment_entries = trace_log_default_segment_entries)
      : segment_entries_(segment_entries), genesis_(trace_log_genesis_hash()) {
    if (segment_entries == 0) throw std::invalid_argument("trace_log: segment_entries must be at least 1");
  }

  /// An empty log in memory (options.file empty) or streaming to
  /// options.file, which is created (or truncated) and given its header now.
  /// Throws std::system_error naming the file if it cannot be written.
  explicit trace_log(const trace_log_options& options) : trace_log(options.segment_entries) {
    if (!options.file.empty()) stream_ = std::make_unique<stream>(options.file, segment_entries_, options.fsync, genesis_);
  }

  /// Copies hold every entry; a streaming log cannot be copied (two writers
  /// would share one file): its copy throws std::logic_error. A moved-from
  /// log is an empty in-memory one (head() == H_0); a moved streaming log
  /// keeps its file.
  trace_log(const trace_log& other) : segment_entries_(other.segment_entries_), genesis_(other.genesis_) {
    if (other.stream_)
      throw std::logic_error("trace_log: the log streaming to " + other.stream_->path + " cannot be copied");
    for (std::size_t k = 0; k < other.size_; ++k) push(other.record_at(k));
  }
  trace_log(trace_log&& other) noexcept
      : segment_entries_(other.segment_entries_),
        genesis_(other.genesis_),
        root_(std::move(other.root_)),
        depth_(std::exchange(other.depth_, 0)),
        size_(std::exchange(other.size_, 0)),
        stream_(std::move(other.stream_)) {}
  trace_log& operator=(const trace_log& other) {
    if (this != &other) *this = trace_log(other);
    return *this;
  }
  /// Closes this log's file first, as the destructor does.
  trace_log& operator=(trace_log&& other) noexcept {
    if (this == &other) return *this;
    close_quietly();
    segment_entries_ = other.segment_entries_;
    genesis_ = other.genesis_;
    root_ = std::move(other.root_);
    depth_ = std::exchange(other.depth_, 0);
    size_ = std::exchange(other.size_, 0);
    stream_ = std::move(other.stream_);
    return *this;
  }
  /// A streaming log not yet closed is closed (see close()); an error there
  /// cannot be thrown and leaves the file without its end record, which
  /// verify_trace_file reports. Call close() to see such errors.
  ~trace_log() { close_quietly(); }

  /// Appends one entry and returns the new head H_{n+1}. Cost: O(payload)
  /// and, once per 256 entries, the allocation of a chunk for the next 256
  /// plus at most one tree node per level (see `push`): bounded by a
  /// constant, however long the log (no table is ever copied to grow it).
  /// A streaming log writes the segment this entry completes (one write(2)).
  /// Strong exception guarantee: if it throws (std::bad_alloc, or
  /// std::system_error naming the file when a write fails), the log and its
  /// file are as they were (unless the file cannot even be cut back: see
  /// the top of this file). Throws std::logic_error after close().
  sha256_digest append(trace_entry e) {
    const std::vector<std::uint8_t> bytes = serialize_trace_entry(e);
    const sha256_digest next = sha256_hasher{}.update(head()).update(bytes).final();
    record r{std::move(e), sha256(bytes), next};
    if (stream_)
      stream_append(std::move(r), bytes);
    else
      push(std::move(r));
    return next;
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  /// H_n, n = size(): H_0 for an empty log.
  const sha256_digest& head() const noexcept { return size_ == 0 ? genesis_ : record_at(size_ - 1).chain; }

  /// The recorded H_n for retained_begin() <= n <= size() (the head after
  /// the first n entries).
  const sha256_digest& head_at(std::size_t n) const {
    if (n > size()) throw std::out_of_range("trace_log::head_at: n exceeds size()");
    if (n == retained_begin()) return stream_ ? stream_->first_head : genesis_;
    return retained(n - 1, "head_at").chain;
  }

  /// Entry k (read only), retained_begin() <= k < size().
  const trace_entry& entry(std::size_t k) const { return retained(k, "entry").entry; }

  /// SHA-256(serialize(entry k)): the Merkle leaf of entry k, retained_begin() <= k < size().
  const sha256_digest& entry_digest(std::size_t k) const { return retained(k, "entry_digest").digest; }

  /// Recomputes the chain of the retained entries (all of them in memory;
  /// the last segment's when streaming) from the recorded H at
  /// retained_begin() and returns the index k of the first entry whose
  /// recorded H_{k+1} differs from SHA-256(H_k || serialize(entry k)), with
  /// H_k the recomputed value; npos when all match. A streaming log's file
  /// is checked by verify_trace_file (trace_file.hpp).
  std::size_t verify() const {
    sha256_digest h = head_at(retained_begin());
    std::vector<std::uint8_t> bytes;
    for (std::size_t k = retained_begin(); k < size_; ++k) {
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
  /// [s * S, min((s + 1) * S, size()))), s < segment_count(); a streaming
  /// log answers for its last segment only (the others' roots are in the
  /// file). The root of the partial last segment changes as entries are
  /// appended; full segments' do not.
  sha256_digest segment_root(std::size_t segment) const {
    if (segment >= segment_count()) throw std::out_of_range("trace_log::segment_root: no such segment");
    const std::size_t begin = segment * segment_entries_;
    if (stream_) {
      if (begin != retained_begin())
        throw std::out_of_range("trace_log::segment_root: segment " + std::to_string(segment) +
                                " was streamed to " + stream_->path + "; its root is in the file");
      return stream_->merkle.root();
    }
    const std::size_t count = std::min(segment_entries_, size() - begin);
    std::vector<sha256_digest> leaves(count);
    for (std::size_t i = 0; i < count; ++i) leaves[i] = record_at(begin + i).digest;
    return merkle_root(std::span<const sha256_digest>(leaves));
  }

  /// True when the log streams to a file.
  bool streaming() const noexcept { return stream_ != nullptr; }

  /// The file a streaming log writes; empty for an in-memory log.
  std::string_view file() const noexcept { return stream_ ? std::string_view(stream_->path) : std::string_view{}; }

  /// The first entry held in memory: 0 in memory; when streaming, the first
  /// entry of the last segment that has any.
  std::size_t retained_begin() const noexcept { return stream_ ? stream_->first : 0; }

  /// Streaming: writes the partial last segment (if any) and the end record,
  /// fsyncs (unless trace_fsync::never) and closes the file; later appends
  /// throw std::logic_error, the retained entries stay readable. A second
  /// call does nothing, and so does close() on an in-memory log. On a write
  /// error it throws std::system_error naming the file and leaves the log
  /// and the file as they were, so it may be called again; an error of
  /// close(2) or of the folder's fsync, once the end record is written, is
  /// thrown too, the log then closed.
  void close() {
    if (!stream_ || stream_->closed) return;
    stream& s = *stream_;
    if (s.torn) throw torn_error(s);
    const std::size_t open_entries = size_ % segment_entries_;  // not yet written
    const std::size_t kept = s.pending.size();
    std::span<std::uint8_t> out;
    try {
      if (open_entries != 0)
        detail::store_segment_header(s.pending.data(), size_ / segment_entries_, open_entries, s.first,
                                     s.records.front().entry.step, s.merkle.root(), head());
      s.pending.resize(kept + detail::trace_end_record_bytes);
      std::uint8_t* end = s.pending.data() + kept;
      for (std::size_t i = 0; i < 4; ++i) end[i] = static_cast<std::uint8_t>(detail::trace_end_tag[i]);
      detail::store_le(end + 4, size_, 8);
      detail::store_le(end + 12, segment_count(), 8);
      std::copy(head().begin(), head().end(), end + 20);
      const std::size_t skip = open_entries != 0 ? 0 : detail::trace_segment_header_bytes;  // no segment to write
      write_kept(s, std::span<const std::uint8_t>(s.pending).subspan(skip), s.fsync != trace_fsync::never);
    } catch (...) {
      s.pending.resize(kept);
      throw;
    }
    // The file is complete: what fails from here is reported, the log stays closed.
    s.pending = {};
    s.closed = true;
    if (const int error = s.fd.reset(); error != 0) detail::throw_file_error(error, "close failed", s.path);
    if (s.fsync != trace_fsync::never) detail::fsync_folder_of(s.path);
  }

  /// True once close() has written a streaming log's end record.
  bool closed() const noexcept { return stream_ && stream_->closed; }

  /// Bytes of memory this log holds: the object, its entries with their
  /// payloads and storage, and when streaming the unwritten segment's bytes.
  /// Grows with size() in memory; bounded when streaming (about
  /// S * (2 * largest entry + sizeof(record) + 32) bytes plus a constant).
  std::size_t memory_bytes() const noexcept {
    std::size_t total = sizeof(*this);
    if (stream_) {
      const stream& s = *stream_;
      total += sizeof(stream) + s.path.capacity() + s.pending.capacity() + s.records.capacity() * sizeof(record);
      for (const record& r : s.records) total += r.entry.payload.capacity();
    } else if (root_) {
      total += node_bytes(*root_);
    }
    return total;
  }

  /// The log as bytes (format at the top of this file). In memory only:
  /// a streaming log throws std::logic_error (its entries are in its file).
  std::vector<std::uint8_t> image() const {
    if (stream_)
      throw std::logic_error("trace_log::image: the log streams to " + stream_->path +
                             "; its entries are in that file");
    std::vector<std::uint8_t> out(trace_log_image_magic.begin(), trace_log_image_magic.end());
    detail::put_le(out, size_, 8);
    for (std::size_t k = 0; k < size_; ++k) {
      const record& r = record_at(k);
      serialize_trace_entry(r.entry, out);
      out.insert(out.end(), r.chain.begin(), r.chain.end());
    }
    return out;
  }

  /// An in-memory log from an image. Throws std::invalid_argument (naming
  /// the byte offset) if the bytes are not an image; does NOT check the
  /// chain: call verify() on the result.
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

  /// A streaming log's state: the file, the entries of the last segment
  /// that has any ([first, size)), and the open segment's bytes not yet
  /// written (its header's room, then its entries).
  struct stream {
    stream(const std::string& file, std::size_t segment_entries, trace_fsync policy, const sha256_digest& h0)
        : path(file), fsync(policy), first_head(h0) {
      fd = detail::trace_file_descriptor(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
      if (fd.get() < 0) detail::throw_file_error(errno, "cannot be created", path);
      const std::vector<std::uint8_t> header = detail::trace_file_header(segment_entries);
      detail::write_all(fd.get(), header, path);
      if (fsync == trace_fsync::every_segment) {
        detail::fsync_or_throw(fd.get(), path);
        detail::fsync_folder_of(path);
      }
      file_bytes = header.size();
      pending.resize(detail::trace_segment_header_bytes);
    }

    detail::trace_file_descriptor fd;
    std::string path;
    trace_fsync fsync;
    std::uint64_t file_bytes = 0;       ///< the file's length: every complete record written
    std::vector<std::uint8_t> pending;  ///< the open segment as it will be written
    std::vector<record> records;        ///< entries [first, size)
    std::size_t first = 0;
    sha256_digest first_head;           ///< H_first
    merkle_accumulator merkle;          ///< over the digests of `records`
    bool closed = false;
    bool torn = false;                  ///< a write failed and the file could not be cut back
  };

  static std::logic_error torn_error(const stream& s) {
    return std::logic_error("trace_log: a write to " + s.path +
                            " failed and the file could not be cut back to its last complete record; "
                            "the log takes no more entries");
  }

  /// Writes `bytes` at the end of the file (and fsyncs if asked); on
  /// failure cuts the file back to its length before, so no partial record
  /// stays, and rethrows.
  static void write_kept(stream& s, std::span<const std::uint8_t> bytes, bool sync) {
    try {
      detail::write_all(s.fd.get(), bytes, s.path);
      if (sync) detail::fsync_or_throw(s.fd.get(), s.path);
    } catch (...) {
      if (::ftruncate(s.fd.get(), static_cast<::off_t>(s.file_bytes)) != 0 ||
          ::lseek(s.fd.get(), static_cast<::off_t>(s.file_bytes), SEEK_SET) < 0)
        s.torn = true;
      throw;
    }
    s.file_bytes += bytes.size();
  }

  void stream_append(record r, std::span<const std::uint8_t> bytes) {
    stream& s = *stream_;
    if (s.closed) throw std::logic_error("trace_log::append: the log streaming to " + s.path + " is closed");
    if (s.torn) throw torn_error(s);
    const std::size_t before = size_ % segment_entries_;  // entries of the open segment so far
    const bool completes = before + 1 == segment_entries_;
    // Everything that may throw comes first: room for the record, the
    // entry's bytes, the write. Then the commit, which cannot throw.
    const std::size_t kept = s.pending.size();
    try {
      if (before != 0 && s.records.size() == s.records.capacity())
        s.records.reserve(std::min(segment_entries_, 2 * s.records.size()));
      else if (before == 0 && s.records.capacity() == 0)
        s.records.reserve(1);
      s.pending.insert(s.pending.end(), bytes.begin(), bytes.end());
      s.pending.insert(s.pending.end(), r.chain.begin(), r.chain.end());
      if (completes) {
        merkle_accumulator merkle = before == 0 ? merkle_accumulator{} : s.merkle;
        merkle.add(r.digest);
        detail::store_segment_header(s.pending.data(), size_ / segment_entries_, segment_entries_, size_ - before,
                                     before == 0 ? r.entry.step : s.records.front().entry.step, merkle.root(),
                                     r.chain);
        write_kept(s, s.pending, s.fsync == trace_fsync::every_segment);
      }
    } catch (...) {
      s.pending.resize(kept);
      throw;
    }
    if (before == 0) {  // a new segment: the previous one is in the file
      s.first_head = head();
      s.first = size_;
      s.records.clear();
      s.merkle.clear();
    }
    s.records.push_back(std::move(r));  // within the capacity reserved above: noexcept
    s.merkle.add(s.records.back().digest);
    ++size_;
    if (completes) s.pending.resize(detail::trace_segment_header_bytes);
  }

  void close_quietly() noexcept {
    try {
      close();
    } catch (...) {  // NOLINT(bugprone-empty-catch): documented at ~trace_log; the verifier reports the missing end
    }
  }

  const record& retained(std::size_t k, const char* who) const {
    if (k >= size()) throw std::out_of_range(std::string("trace_log::") + who + ": index out of range");
    if (k < retained_begin())
      throw std::out_of_range(std::string("trace_log::") + who + ": entry " + std::to_string(k) + " was streamed to " +
                              stream_->path + "; entries " + std::to_string(retained_begin()) + " to " +
                              std::to_string(size() - 1) + " are in memory");
    return record_at(k);
  }

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

  static std::size_t node_bytes(const node& n) noexcept {
    std::size_t total = sizeof(node) + n.records.capacity() * sizeof(record) +
                        n.children.capacity() * sizeof(std::unique_ptr<node>);
    for (const record& r : n.records) total += r.entry.payload.capacity();
    for (const auto& child : n.children) total += node_bytes(*child);
    return total;
  }

  /// Record k: from the tree in memory, from the retained segment when
  /// streaming (k >= retained_begin()).
  const record& record_at(std::size_t k) const noexcept {
    if (stream_) return stream_->records[k - stream_->first];
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
  std::unique_ptr<stream> stream_;  ///< set when streaming
};

BEM_NAMESPACE_END
