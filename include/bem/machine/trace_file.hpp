// Checking a trace file: the one a streaming bem::trace_log writes (its
// format, byte by byte, is at the top of trace_log.hpp).
//
//   const bem::trace_file_report r = bem::verify_trace_file("run.trace");
//   if (!r.ok()) std::cerr << r.message << '\n';   // e.g. "chain mismatch: entry 1234 (segment 4, byte 90817): ..."
//
// verify_trace_file reads the file once, front to back, in bounded memory (a
// 64 KiB read buffer, a Merkle accumulator and two running hashes, whatever
// the file's size, its segment size or the payload sizes it claims). It
// checks, in file order, and stops at the first problem:
//   - the file header: magic, version, checksum, S >= 1;
//   - each segment record: its tag, that its index is the next one, that
//     its entry count is 1..S (S for all but the last) and its first entry
//     index s * S; each entry's recorded H_{k+1} against
//     SHA-256(H_k || serialize(entry k)), H_0 the genesis; its first step
//     against its first entry; its Merkle root against the root of its
//     entries' digests; its chain head against the last H;
//   - the end record: present, its entry count, segment count and head equal
//     to the file's, and nothing after it.
// The report names the problem, the first bad entry (where an entry is to
// blame), the segment and the byte offset, and the valid prefix before it:
// the entries whose chain values matched, the segments checked whole, and
// the head after those entries (the value to compare with a head kept
// elsewhere; the chain cannot show on its own that a consistent file was
// rewritten from some entry on).
//
// trace_file_report::exit_code() is 0 (valid), 1 (a trace file with a
// problem) or 2 (not a trace file, an unknown version, or unreadable);
// detail::trace_file_verify_main prints the verdict for a command line.
#pragma once

#include <bem/machine/hash.hpp>
#include <bem/machine/trace_log.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

BEM_NAMESPACE_BEGIN

/// What verify_trace_file found.
struct trace_file_report {
  enum class problem : std::uint8_t {
    none,                   ///< a valid, complete trace file
    unreadable,             ///< cannot be opened or read (exit code 2)
    not_a_trace_file,       ///< empty, or does not start with "BEMTRACE" (2)
    unsupported_version,    ///< a version this reader does not know (2)
    bad_file_header,        ///< the header's checksum does not match, or S = 0
    bad_record_tag,         ///< neither "SEGM" nor "ENDL" where a record starts
    segment_out_of_order,   ///< a segment's index is not the next one
    bad_segment_header,     ///< entry count not 1..S, first entry not s * S, or a short segment not last
    truncated,              ///< the file ends inside a record (a torn write, or a length field altered)
    missing_end,            ///< the file ends between records, without the end record
    chain_mismatch,         ///< an entry's recorded H_{k+1} is not SHA-256(H_k || serialize(entry k))
    first_step_mismatch,    ///< a segment's first step is not its first entry's step
    root_mismatch,          ///< a segment's Merkle root is not the root of its entries' digests
    segment_head_mismatch,  ///< a segment's chain head is not the H after its last entry
    end_mismatch,           ///< the end record's counts or head differ from the file's
    trailing_bytes,         ///< bytes after the end record
  };
  static constexpr std::uint64_t npos = std::numeric_limits<std::uint64_t>::max();

  problem what = problem::none;
  std::string message;               ///< one line: the problem and where; empty when valid
  std::uint64_t segment_entries = 0;  ///< S from the file header (0 if not read)
  std::uint64_t entries = 0;         ///< entries whose chain value matched (all of them when valid)
  std::uint64_t segments = 0;        ///< segments checked whole
  sha256_digest head{};              ///< H after `entries` entries
  std::uint64_t bad_entry = npos;    ///< the first bad entry's index, where one entry is to blame
  std::uint64_t bad_segment = npos;  ///< the segment record the problem is in (for a bad tag: the
                                     ///< record's position); npos for the file header and end record
  std::uint64_t byte_offset = npos;  ///< the first byte of the bad record or field

  bool ok() const noexcept { return what == problem::none; }
  /// False when the file is not one this reader can check at all.
  bool is_trace_file() const noexcept {
    return what != problem::unreadable && what != problem::not_a_trace_file && what != problem::unsupported_version;
  }
  /// 0 valid, 1 a trace file with a problem, 2 not a trace file or unreadable.
  int exit_code() const noexcept { return ok() ? 0 : is_trace_file() ? 1 : 2; }
};

/// The problem's name in words ("chain mismatch", ...).
inline const char* to_string(trace_file_report::problem p) noexcept {
  using enum trace_file_report::problem;
  switch (p) {
    case none: return "valid";
    case unreadable: return "unreadable";
    case not_a_trace_file: return "not a trace file";
    case unsupported_version: return "unsupported version";
    case bad_file_header: return "bad file header";
    case bad_record_tag: return "bad record tag";
    case segment_out_of_order: return "segment out of order";
    case bad_segment_header: return "bad segment header";
    case truncated: return "truncated";
    case missing_end: return "missing end record";
    case chain_mismatch: return "chain mismatch";
    case first_step_mismatch: return "first step mismatch";
    case root_mismatch: return "Merkle root mismatch";
    case segment_head_mismatch: return "segment head mismatch";
    case end_mismatch: return "end record mismatch";
    case trailing_bytes: return "trailing bytes";
  }
  return "unknown problem";
}

namespace detail {
/// The bytes of a trace file, read front to back: from a file descriptor
/// through a fixed buffer, or from memory. `size` is the total when known
/// (a regular file, a span), npos otherwise.
class trace_byte_source {
 public:
  explicit trace_byte_source(std::span<const std::uint8_t> bytes) noexcept : memory_(bytes), size_(bytes.size()) {}
  trace_byte_source(int fd, std::uint64_t size) : fd_(fd), size_(size), buffer_(std::size_t{1} << 16) {}

  /// Copies up to n bytes to `out`; fewer only at the end of the data.
  /// Throws std::system_error if reading fails.
  std::size_t read(std::uint8_t* out, std::size_t n) {
    std::size_t got = 0;
    while (got < n) {
      if (fd_ < 0) {
        const std::size_t take = std::min<std::uint64_t>(n - got, memory_.size() - offset_);
        if (take == 0) break;
        std::memcpy(out + got, memory_.data() + offset_, take);
        got += take;
        offset_ += take;
        continue;
      }
      if (begin_ == end_ && !refill()) break;
      const std::size_t take = std::min(n - got, end_ - begin_);
      std::memcpy(out + got, buffer_.data() + begin_, take);
      begin_ += take;
      got += take;
      offset_ += take;
    }
    return got;
  }

  std::uint64_t offset() const noexcept { return offset_; }
  std::uint64_t size() const noexcept { return size_; }

 private:
  bool refill() {
    for (;;) {
      const ::ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw std::system_error(errno, std::generic_category(), "read failed at byte " + std::to_string(offset_));
      begin_ = 0;
      end_ = static_cast<std::size_t>(n);
      return n > 0;
    }
  }

  std::span<const std::uint8_t> memory_;
  int fd_ = -1;
  std::uint64_t size_;
  std::vector<std::uint8_t> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  std::uint64_t offset_ = 0;
};

inline sha256_digest load_digest(const std::uint8_t* at) noexcept {
  sha256_digest d{};
  std::copy(at, at + 32, d.begin());
  return d;
}

/// The checks of verify_trace_file over one source (see the top of this file).
class trace_file_checker {
 public:
  explicit trace_file_checker(trace_byte_source& source) : in_(source) {}

  trace_file_report run() {
    report_.head = trace_log_genesis_hash();
    try {
      if (check_file_header() && check_records()) check_end();
    } catch (const std::system_error& e) {
      fail(trace_file_report::problem::unreadable, e.what(), npos, npos, in_.offset());
    }
    return report_;
  }

 private:
  using problem = trace_file_report::problem;
  static constexpr std::uint64_t npos = trace_file_report::npos;

  bool fail(problem p, const std::string& text, std::uint64_t segment, std::uint64_t entry, std::uint64_t at) {
    report_.what = p;
    report_.message = std::string(to_string(p)) + ": " + text;
    report_.bad_segment = segment;
    report_.bad_entry = entry;
    report_.byte_offset = at;
    return false;
  }

  static std::string where(std::uint64_t segment, std::uint64_t at) {
    return "segment " + std::to_string(segment) + " (byte " + std::to_string(at) + ")";
  }

  bool check_file_header() {
    std::array<std::uint8_t, trace_file_header_bytes> h{};
    const std::size_t got = in_.read(h.data(), h.size());
    if (got == 0) return fail(problem::not_a_trace_file, "the file is empty", npos, npos, 0);
    const std::size_t compared = std::min(got, trace_file_magic.size());
    if (std::memcmp(h.data(), trace_file_magic.data(), compared) != 0) {
      const bool image = compared == trace_log_image_magic.size() &&
                         std::memcmp(h.data(), trace_log_image_magic.data(), compared) == 0;
      return fail(problem::not_a_trace_file,
                  image ? "this is a trace_log image (\"BEMTLOG1\"), not a trace file: read it with trace_log::load"
                        : "it does not start with \"BEMTRACE\"",
                  npos, npos, 0);
    }
    if (got < h.size())
      return fail(problem::truncated,
                  "the file ends at byte " + std::to_string(got) + ", inside its " +
                      std::to_string(h.size()) + "-byte header",
                  npos, npos, 0);
    const std::uint64_t version = get_le(h, 8, 4);
    if (version != trace_file_version)
      return fail(problem::unsupported_version,
                  "version " + std::to_string(version) + " (byte 8); this reader knows version " +
                      std::to_string(trace_file_version),
                  npos, npos, 8);
    if (sha256(std::span<const std::uint8_t>(h.data(), 20)) != load_digest(h.data() + 20))
      return fail(problem::bad_file_header, "the header's checksum (bytes 20..51) does not match bytes 0..19", npos,
                  npos, 0);
    report_.segment_entries = get_le(h, 12, 8);
    if (report_.segment_entries == 0)
      return fail(problem::bad_file_header, "segment size 0 (byte 12)", npos, npos, 12);
    return true;
  }

  /// Segment records up to the end record; true when the end record's tag
  /// has been read.
  bool check_records() {
    const std::uint64_t S = report_.segment_entries;
    bool last_was_short = false;
    for (std::uint64_t s = 0;; ++s) {
      const std::uint64_t at = in_.offset();
      std::array<std::uint8_t, trace_segment_header_bytes> h{};
      const std::size_t got = in_.read(h.data(), 4);
      if (got == 0)
        return fail(problem::missing_end,
                    "the file ends at byte " + std::to_string(at) + ", after " + std::to_string(s) + " segments (" +
                        std::to_string(report_.entries) +
                        " entries), without the end record: the writer did not close it (it stopped or is still "
                        "writing) or the file was cut there",
                    npos, npos, at);
      if (got < 4)
        return fail(problem::truncated, "the file ends inside the record that starts at byte " + std::to_string(at),
                    s, npos, at);
      if (std::memcmp(h.data(), trace_end_tag.data(), 4) == 0) return true;
      if (std::memcmp(h.data(), trace_segment_tag.data(), 4) != 0)
        return fail(problem::bad_record_tag,
                    "byte " + std::to_string(at) + ": neither a segment (\"SEGM\") nor the end record (\"ENDL\") after " +
                        std::to_string(s) + " segments",
                    s, npos, at);
      if (in_.read(h.data() + 4, h.size() - 4) < h.size() - 4)
        return fail(problem::truncated, where(s, at) + ": the file ends inside the segment header", s, npos, at);
      const std::uint64_t index = get_le(h, 4, 8), count = get_le(h, 12, 8);
      const std::uint64_t first_entry = get_le(h, 20, 8), first_step = get_le(h, 28, 8);
      if (index != s)
        return fail(problem::segment_out_of_order,
                    where(s, at) + ": its header says index " + std::to_string(index) + ", expected " + std::to_string(s),
                    s, npos, at + 4);
      if (last_was_short)
        return fail(problem::bad_segment_header,
                    "segment " + std::to_string(s - 1) + " holds fewer than " + std::to_string(S) +
                        " entries but is followed by segment " + std::to_string(s) + " (byte " + std::to_string(at) + ")",
                    s, npos, at);
      if (count == 0 || count > S)
        return fail(problem::bad_segment_header,
                    where(s, at) + ": entry count " + std::to_string(count) + ", outside 1.." + std::to_string(S), s,
                    npos, at + 12);
      if (first_entry != report_.entries)
        return fail(problem::bad_segment_header,
                    where(s, at) + ": first entry index " + std::to_string(first_entry) + ", expected " +
                        std::to_string(report_.entries),
                    s, npos, at + 20);
      merkle_accumulator merkle;
      for (std::uint64_t j = 0; j < count; ++j) {
        std::uint64_t step = 0;
        sha256_digest digest{};
        if (!check_entry(s, step, digest)) return false;
        if (j == 0 && step != first_step)
          return fail(problem::first_step_mismatch,
                      where(s, at) + ": its header's first step is " + std::to_string(first_step) + ", entry " +
                          std::to_string(report_.entries - 1) + "'s step is " + std::to_string(step),
                      s, report_.entries - 1, at + 28);
        merkle.add(digest);
      }
      if (merkle.root() != load_digest(h.data() + 36))
        return fail(problem::root_mismatch,
                    where(s, at) + ": the Merkle root in its header (byte " + std::to_string(at + 36) +
                        ") is not the root of its entries' digests",
                    s, npos, at + 36);
      if (report_.head != load_digest(h.data() + 68))
        return fail(problem::segment_head_mismatch,
                    where(s, at) + ": the chain head in its header (byte " + std::to_string(at + 68) +
                        ") is not H_" + std::to_string(report_.entries),
                    s, npos, at + 68);
      last_was_short = count < S;
      ++report_.segments;
    }
  }

  /// One entry: its chain value checked, its step and digest returned.
  bool check_entry(std::uint64_t s, std::uint64_t& step, sha256_digest& digest) {
    const std::uint64_t k = report_.entries, at = in_.offset();
    const auto torn = [&](const std::string& why) {
      return fail(problem::truncated,
                  "entry " + std::to_string(k) + " (segment " + std::to_string(s) + ", byte " + std::to_string(at) +
                      "): " + why,
                  s, k, at);
    };
    std::array<std::uint8_t, trace_entry_header_bytes> h{};
    if (in_.read(h.data(), h.size()) < h.size()) return torn("the file ends inside the entry");
    step = get_le(h, 0, 8);
    const std::uint64_t payload = get_le(h, 12, 8);
    const std::uint64_t left = in_.size() == npos ? npos : in_.size() - in_.offset();
    if (left != npos && (left < 32 || payload > left - 32))
      return torn("its payload size " + std::to_string(payload) + " and chain value run past the end of the file (" +
                  std::to_string(left) + " bytes left)");
    sha256_hasher leaf, chain;
    chain.update(report_.head);
    leaf.update(std::span<const std::uint8_t>(h));
    chain.update(std::span<const std::uint8_t>(h));
    std::array<std::uint8_t, 4096> chunk{};
    for (std::uint64_t rest = payload; rest != 0;) {
      const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(rest, chunk.size()));
      const std::size_t got = in_.read(chunk.data(), want);
      leaf.update(std::span<const std::uint8_t>(chunk.data(), got));
      chain.update(std::span<const std::uint8_t>(chunk.data(), got));
      if (got < want) return torn("the file ends inside its payload");
      rest -= got;
    }
    std::array<std::uint8_t, 32> recorded{};
    if (in_.read(recorded.data(), recorded.size()) < recorded.size())
      return torn("the file ends inside its chain value");
    if (chain.final() != load_digest(recorded.data()))
      return fail(problem::chain_mismatch,
                  "entry " + std::to_string(k) + " (segment " + std::to_string(s) + ", byte " + std::to_string(at) +
                      "): its recorded H_" + std::to_string(k + 1) + " is not SHA-256(H_" + std::to_string(k) +
                      " || entry " + std::to_string(k) + ")",
                  s, k, at);
    digest = leaf.final();
    report_.head = load_digest(recorded.data());
    ++report_.entries;
    return true;
  }

  /// The end record, its tag already read.
  void check_end() {
    const std::uint64_t at = in_.offset() - 4;
    std::array<std::uint8_t, trace_end_record_bytes - 4> e{};
    if (in_.read(e.data(), e.size()) < e.size()) {
      fail(problem::truncated, "the file ends inside the end record (byte " + std::to_string(at) + ")", npos, npos, at);
      return;
    }
    const std::uint64_t n = get_le(e, 0, 8), segments = get_le(e, 8, 8);
    const std::string here = "the end record (byte " + std::to_string(at) + ")";
    if (n != report_.entries) {
      fail(problem::end_mismatch,
           here + " says " + std::to_string(n) + " entries, the file holds " + std::to_string(report_.entries), npos,
           npos, at + 4);
      return;
    }
    if (segments != report_.segments) {
      fail(problem::end_mismatch,
           here + " says " + std::to_string(segments) + " segments, the file holds " +
               std::to_string(report_.segments),
           npos, npos, at + 12);
      return;
    }
    if (load_digest(e.data() + 16) != report_.head) {
      fail(problem::end_mismatch, here + ": its head is not H_" + std::to_string(n), npos, npos, at + 20);
      return;
    }
    std::uint8_t extra = 0;
    const std::uint64_t end = in_.offset();
    if (in_.read(&extra, 1) != 0)
      fail(problem::trailing_bytes,
           (in_.size() == npos ? std::string("bytes") : std::to_string(in_.size() - end) + " bytes") +
               " after the end record, from byte " + std::to_string(end),
           npos, npos, end);
  }

  trace_byte_source& in_;
  trace_file_report report_;
};
}  // namespace detail

/// Checks trace-file bytes held in memory (see the top of this file).
inline trace_file_report verify_trace_bytes(std::span<const std::uint8_t> bytes) {
  detail::trace_byte_source source(bytes);
  return detail::trace_file_checker(source).run();
}

/// Checks the trace file at `path`, reading it once in bounded memory (see
/// the top of this file). Never throws for a bad or unreadable file: the
/// report says what is wrong.
inline trace_file_report verify_trace_file(const std::string& path) {
  const auto unreadable = [&](int error, const std::string& what) {
    trace_file_report r;
    r.head = trace_log_genesis_hash();
    r.what = trace_file_report::problem::unreadable;
    r.message = std::string(to_string(r.what)) + ": " + what + ": " + std::generic_category().message(error);
    return r;
  };
  const detail::trace_file_descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return unreadable(errno, "cannot open it");
  struct ::stat st {};
  if (::fstat(fd.get(), &st) != 0) return unreadable(errno, "cannot stat it");
  if (S_ISDIR(st.st_mode)) return unreadable(EISDIR, "cannot read it");
  const std::uint64_t size = S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : trace_file_report::npos;
  detail::trace_byte_source source(fd.get(), size);
  return detail::trace_file_checker(source).run();
}

namespace detail {
/// The body of a `verify FILE` command: checks `path` and prints to `out`
/// one line with the verdict, and for an invalid file a second line with
/// the first bad entry (or segment) and the valid prefix. Returns the exit
/// code: 0 valid, 1 a trace file with a problem, 2 not a trace file or
/// unreadable.
inline int trace_file_verify_main(const std::string& path, std::ostream& out) {
  const trace_file_report r = verify_trace_file(path);
  if (r.ok()) {
    out << path << ": valid trace log: " << r.entries << " entries in " << r.segments << " segments of "
        << r.segment_entries << ", head " << to_hex(r.head) << '\n';
  } else if (!r.is_trace_file()) {
    out << path << ": " << r.message << '\n';  // "unreadable: ...", "not a trace file: ...", "unsupported version: ..."
  } else {
    out << path << ": INVALID trace log: " << r.message << '\n';
    out << "first bad ";
    if (r.bad_entry != trace_file_report::npos)
      out << "entry: " << r.bad_entry << " (segment " << r.bad_segment << ", byte " << r.byte_offset << ")";
    else if (r.bad_segment != trace_file_report::npos)
      out << "segment: " << r.bad_segment << " (byte " << r.byte_offset << ")";
    else
      out << "record: byte " << r.byte_offset;
    out << "; valid before it: " << r.entries << " entries, " << r.segments << " whole segments, head "
        << to_hex(r.head) << '\n';
  }
  return r.exit_code();
}
}  // namespace detail

BEM_NAMESPACE_END
