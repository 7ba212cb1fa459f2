// The streaming trace log and its file: the documented bytes, the verifier's
// verdict and location for every altered byte, every truncation, reordered
// segments and files that are not logs; bounded memory over 10^6 entries;
// write failures.
#include "allocation_hooks.hpp"

#include <bem/machine/trace_file.hpp>
#include <bem/machine/trace_log.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

namespace {
namespace tf {
using problem = bem::trace_file_report::problem;
constexpr std::uint64_t npos = bem::trace_file_report::npos;

/// A fresh folder for one test case's files, removed with it.
struct scratch_folder {
  std::filesystem::path path;
  scratch_folder() {
    std::string name = (std::filesystem::temp_directory_path() / "bem-trace-test-XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = name;
  }
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  ~scratch_folder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, std::span<const std::uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::uint8_t> u_le(std::uint64_t v, int n) {
  std::vector<std::uint8_t> out;
  for (int i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  return out;
}

/// Entry k of the test logs: steps not equal to k, kinds and payload sizes
/// (0 .. payload_cycle - 1) that vary.
bem::trace_entry entry_for(std::uint64_t k, std::size_t payload_cycle = 5) {
  bem::trace_entry e{1000 + 3 * k, static_cast<std::uint32_t>(k % 7), {}};
  for (std::size_t i = 0; i < k % payload_cycle; ++i) e.payload.push_back(static_cast<std::uint8_t>(k * 31 + i));
  return e;
}

/// Streams n entries to `path` in segments of S, closes it, and returns the
/// same entries in an in-memory log.
bem::trace_log write_log(const std::string& path, std::size_t S, std::uint64_t n, std::size_t payload_cycle = 5,
                         bem::trace_fsync fsync = bem::trace_fsync::on_close) {
  bem::trace_log memory(S);
  bem::trace_log file(bem::trace_log_options{S, path, fsync});
  std::uint64_t wrong_heads = 0;
  for (std::uint64_t k = 0; k < n; ++k) {
    const auto e = entry_for(k, payload_cycle);
    wrong_heads += file.append(e) == memory.append(e) ? 0 : 1;
  }
  CHECK(wrong_heads == 0);
  file.close();
  return memory;
}

/// Where each record of a trace file lies, from the entries alone (the
/// layout documented in trace_log.hpp, not the writer's constants).
struct region {
  enum kind_t { file_header, segment_header, entry, end_record } kind;
  std::size_t begin, end;
  std::uint64_t segment = npos, entry_index = npos;
};

std::vector<region> layout(const bem::trace_log& memory) {
  const std::size_t S = memory.segment_entries(), n = memory.size();
  std::vector<region> out{{region::file_header, 0, 52}};
  std::size_t at = 52;
  for (std::size_t s = 0; s * S < n; ++s) {
    out.push_back({region::segment_header, at, at + 100, s});
    at += 100;
    for (std::size_t k = s * S; k < std::min(n, s * S + S); ++k) {
      const std::size_t len = 20 + memory.entry(k).payload.size() + 32;
      out.push_back({region::entry, at, at + len, s, k});
      at += len;
    }
  }
  out.push_back({region::end_record, at, at + 52});
  return out;
}

const region& region_at(const std::vector<region>& map, std::size_t offset) {
  for (const region& r : map)
    if (offset >= r.begin && offset < r.end) return r;
  throw std::out_of_range("offset past the file");
}

std::uint64_t segments_of(const std::vector<region>& map) {
  return static_cast<std::uint64_t>(
      std::count_if(map.begin(), map.end(), [](const region& r) { return r.kind == region::segment_header; }));
}

/// What the verifier must say of a file with byte `offset` altered; empty
/// when the report says it, else what is wrong with the report.
std::string misreport(const bem::trace_file_report& r, const std::vector<region>& map, std::size_t offset) {
  const region& g = region_at(map, offset);
  const std::size_t field = offset - g.begin;
  std::ostringstream why;
  const auto expect = [&](bool ok, const char* what) {
    if (!ok) why << what << "; ";
  };
  expect(!r.ok(), "accepted");
  switch (g.kind) {
    case region::file_header:
      expect(r.what == (field < 8    ? problem::not_a_trace_file
                        : field < 12 ? problem::unsupported_version
                                     : problem::bad_file_header),
             "file header: wrong problem");
      expect(r.exit_code() == (field < 12 ? 2 : 1), "file header: wrong exit code");
      break;
    case region::segment_header: {
      expect(r.bad_segment == g.segment, "segment header: wrong segment");
      expect(r.byte_offset >= g.begin, "segment header: offset before the segment");
      const problem want = field < 4    ? problem::bad_record_tag
                           : field < 12 ? problem::segment_out_of_order
                           : field < 20 ? r.what  // a changed count fails where the count leads
                           : field < 28 ? problem::bad_segment_header
                           : field < 36 ? problem::first_step_mismatch
                           : field < 68 ? problem::root_mismatch
                                        : problem::segment_head_mismatch;
      expect(r.what == want, "segment header: wrong problem");
      // A wrong first step is blamed on the segment's first entry (the region after its header).
      if (want == problem::first_step_mismatch)
        expect(r.bad_entry == (&g + 1)->entry_index, "segment header: first step blamed on the wrong entry");
      break;
    }
    case region::entry:
      expect(r.what == problem::chain_mismatch || r.what == problem::truncated, "entry: wrong problem");
      expect(r.bad_entry == g.entry_index, "entry: wrong entry");
      expect(r.bad_segment == g.segment, "entry: wrong segment");
      expect(r.byte_offset == g.begin, "entry: wrong offset");
      expect(r.entries == g.entry_index, "entry: wrong valid prefix");
      break;
    case region::end_record:
      if (field < 4) {
        expect(r.what == problem::bad_record_tag, "end record tag: wrong problem");
        expect(r.bad_segment == segments_of(map), "end record tag: wrong position");
      } else {
        expect(r.what == problem::end_mismatch, "end record: wrong problem");
        expect(r.byte_offset >= g.begin && r.byte_offset < g.end, "end record: wrong offset");
      }
      break;
  }
  if (g.kind != region::file_header) expect(r.exit_code() == 1, "wrong exit code");
  return why.str();
}
}  // namespace tf
}  // namespace

TEST_CASE("LOG file: the bytes on disk are the documented format, and its heads and roots are the in-memory log's") {
  // Segment sizes 1, 3 and 4 over 0..9 entries: no segment, partial last
  // segments, and logs that end exactly at a segment's end.
  tf::scratch_folder dir;
  for (const std::size_t S : {std::size_t{1}, std::size_t{3}, std::size_t{4}}) {
    for (std::uint64_t n = 0; n <= 9; ++n) {
      CAPTURE(S);
      CAPTURE(n);
      const std::string path = dir.file("documented.trace");
      const bem::trace_log memory = tf::write_log(path, S, n);
      const std::vector<std::uint8_t> bytes = tf::read_bytes(path);
      const auto map = tf::layout(memory);
      REQUIRE(bytes.size() == map.back().end);
      const auto at = [&](const tf::region& g, std::size_t from, std::size_t count) {
        return std::vector<std::uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(g.begin + from),
                                         bytes.begin() + static_cast<std::ptrdiff_t>(g.begin + from + count));
      };
      const auto text = [](std::string_view s) { return std::vector<std::uint8_t>(s.begin(), s.end()); };
      const auto digest = [](const bem::sha256_digest& d) { return std::vector<std::uint8_t>(d.begin(), d.end()); };
      for (const tf::region& g : map) {
        switch (g.kind) {
          case tf::region::file_header: {
            CHECK(at(g, 0, 8) == text("BEMTRACE"));
            CHECK(at(g, 8, 4) == tf::u_le(1, 4));
            CHECK(at(g, 12, 8) == tf::u_le(S, 8));
            const auto first = at(g, 0, 20);
            CHECK(at(g, 20, 32) == digest(bem::sha256(std::span<const std::uint8_t>(first))));
            break;
          }
          case tf::region::segment_header: {
            const std::uint64_t first = g.segment * S, count = std::min<std::uint64_t>(S, n - first);
            CHECK(at(g, 0, 4) == text("SEGM"));
            CHECK(at(g, 4, 8) == tf::u_le(g.segment, 8));
            CHECK(at(g, 12, 8) == tf::u_le(count, 8));
            CHECK(at(g, 20, 8) == tf::u_le(first, 8));
            CHECK(at(g, 28, 8) == tf::u_le(memory.entry(first).step, 8));
            CHECK(at(g, 36, 32) == digest(memory.segment_root(g.segment)));
            CHECK(at(g, 68, 32) == digest(memory.head_at(first + count)));
            break;
          }
          case tf::region::entry: {
            auto expected = bem::serialize_trace_entry(memory.entry(g.entry_index));
            const auto chain = digest(memory.head_at(g.entry_index + 1));
            expected.insert(expected.end(), chain.begin(), chain.end());
            CHECK(at(g, 0, g.end - g.begin) == expected);
            break;
          }
          case tf::region::end_record:
            CHECK(at(g, 0, 4) == text("ENDL"));
            CHECK(at(g, 4, 8) == tf::u_le(n, 8));
            CHECK(at(g, 12, 8) == tf::u_le(memory.segment_count(), 8));
            CHECK(at(g, 20, 32) == digest(memory.head()));
            break;
        }
      }
      const bem::trace_file_report r = bem::verify_trace_file(path);
      CHECK_MESSAGE(r.ok(), r.message);
      CHECK(r.exit_code() == 0);
      CHECK(r.entries == n);
      CHECK(r.segments == memory.segment_count());
      CHECK(r.segment_entries == S);
      CHECK(r.head == memory.head());  // the file's chain head is the in-memory log's
    }
  }
}

TEST_CASE("LOG file: a streaming log keeps its last segment; earlier entries are on disk only") {
  tf::scratch_folder dir;
  const std::string path = dir.file("api.trace");
  bem::trace_log memory(4);
  bem::trace_log log(bem::trace_log_options{4, path});
  CHECK(log.streaming());
  CHECK(log.file() == path);
  CHECK_FALSE(memory.streaming());
  CHECK(memory.file().empty());
  CHECK(log.head() == bem::trace_log_genesis_hash());
  CHECK(log.head_at(0) == bem::trace_log_genesis_hash());
  CHECK(log.verify() == bem::trace_log::npos);
  for (std::uint64_t k = 0; k < 10; ++k) {
    const auto e = tf::entry_for(k);
    memory.append(e);
    log.append(e);
    // The retained window is the last segment that has entries, whole.
    CHECK(log.retained_begin() == k / 4 * 4);
    CHECK(log.entry(k) == e);
    CHECK(log.entry_digest(k) == memory.entry_digest(k));
    CHECK(log.head() == memory.head());
    CHECK(log.head_at(log.retained_begin()) == memory.head_at(log.retained_begin()));
    CHECK(log.segment_root(log.segment_count() - 1) == memory.segment_root(memory.segment_count() - 1));
    CHECK(log.verify() == bem::trace_log::npos);
  }
  CHECK(log.size() == 10);
  CHECK(log.segment_count() == 3);
  const std::string streamed = "was streamed to " + path;
  CHECK_THROWS_WITH_AS(log.entry(7), doctest::Contains(streamed.c_str()), std::out_of_range);
  CHECK_THROWS_AS(log.entry_digest(0), std::out_of_range);
  CHECK_THROWS_AS(log.head_at(7), std::out_of_range);
  CHECK_THROWS_AS(log.entry(10), std::out_of_range);
  CHECK_THROWS_WITH_AS(log.segment_root(1), doctest::Contains("its root is in the file"), std::out_of_range);
  CHECK_THROWS_AS(log.image(), std::logic_error);
  CHECK_THROWS_AS(bem::trace_log{log}, std::logic_error);  // two writers on one file
  // Its memory is its last segment's, not the log's.
  CHECK(log.memory_bytes() < memory.memory_bytes());
  // A moved streaming log keeps its file; the moved-from one is empty and in memory.
  bem::trace_log moved = std::move(log);
  CHECK(moved.streaming());
  CHECK(moved.head() == memory.head());
  CHECK_FALSE(log.streaming());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  CHECK(log.size() == 0);
  CHECK(log.head() == bem::trace_log_genesis_hash());
  CHECK_FALSE(moved.closed());
  moved.close();
  CHECK(moved.closed());
  moved.close();  // a second close does nothing
  CHECK_THROWS_WITH_AS(moved.append(tf::entry_for(10)), doctest::Contains("is closed"), std::logic_error);
  CHECK(moved.entry(9) == memory.entry(9));  // still readable
  memory.close();                            // nothing to close in memory
  CHECK_FALSE(memory.closed());
  const auto r = bem::verify_trace_file(path);
  CHECK(r.ok());
  CHECK(r.head == memory.head());
}

TEST_CASE("LOG file: the destructor and a move-assignment close the file") {
  tf::scratch_folder dir;
  bem::trace_log memory(3);
  {
    bem::trace_log log(bem::trace_log_options{3, dir.file("a.trace")});
    for (std::uint64_t k = 0; k < 5; ++k) {
      log.append(tf::entry_for(k));
      memory.append(tf::entry_for(k));
    }
    CHECK(bem::verify_trace_file(dir.file("a.trace")).what == bem::trace_file_report::problem::missing_end);
    log = bem::trace_log(bem::trace_log_options{3, dir.file("b.trace")});  // a.trace is closed here
    CHECK(bem::verify_trace_file(dir.file("a.trace")).ok());
    log.append(tf::entry_for(0));
  }  // b.trace is closed here
  const auto a = bem::verify_trace_file(dir.file("a.trace")), b = bem::verify_trace_file(dir.file("b.trace"));
  CHECK(a.ok());
  CHECK(a.head == memory.head());
  CHECK(b.ok());
  CHECK(b.entries == 1);
  CHECK(b.head == memory.head_at(1));
}

TEST_CASE("LOG file: every fsync policy writes the same bytes") {
  tf::scratch_folder dir;
  tf::write_log(dir.file("never.trace"), 4, 11, 5, bem::trace_fsync::never);
  tf::write_log(dir.file("close.trace"), 4, 11, 5, bem::trace_fsync::on_close);
  tf::write_log(dir.file("segment.trace"), 4, 11, 5, bem::trace_fsync::every_segment);
  const auto bytes = tf::read_bytes(dir.file("close.trace"));
  CHECK(bytes.size() > 52);
  CHECK(tf::read_bytes(dir.file("never.trace")) == bytes);
  CHECK(tf::read_bytes(dir.file("segment.trace")) == bytes);
  CHECK(bem::verify_trace_bytes(bytes).ok());
}

TEST_CASE("LOG file: altering any byte of a small file is detected and located (every offset)") {
  // 7 entries in segments of 3 (3, 3, 1): every byte of the file, each
  // changed three ways (low bit, high bit, a seeded value).
  tf::scratch_folder dir;
  const bem::trace_log memory = tf::write_log(dir.file("small.trace"), 3, 7);
  const std::vector<std::uint8_t> bytes = tf::read_bytes(dir.file("small.trace"));
  const auto map = tf::layout(memory);
  REQUIRE(bytes.size() == map.back().end);
  REQUIRE(bem::verify_trace_bytes(bytes).ok());
  std::uint64_t seed = 0x9E3779B97F4A7C15ull, wrong = 0, checked = 0;
  for (std::size_t offset = 0; offset < bytes.size(); ++offset) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint8_t seeded = static_cast<std::uint8_t>(1 + (seed >> 33) % 255);
    for (const std::uint8_t x : {std::uint8_t{0x01}, std::uint8_t{0x80}, seeded}) {
      auto altered = bytes;
      altered[offset] ^= x;
      const auto r = bem::verify_trace_bytes(altered);
      const std::string why = tf::misreport(r, map, offset);
      ++checked;
      if (!why.empty() && wrong++ == 0) FAIL_CHECK("byte " << offset << " ^ " << int{x} << ": " << why << r.message);
    }
  }
  CHECK(checked == 3 * bytes.size());
  CHECK(wrong == 0);
}

TEST_CASE("LOG file: a byte altered at seeded offsets of a larger file is detected and located") {
  // 1500 entries in segments of 32 (47 segments, the last partial), about
  // 74 KB: wider than the verifier's 64 KiB read buffer, checked from the
  // file every tenth time.
  tf::scratch_folder dir;
  const std::string path = dir.file("large.trace");
  const bem::trace_log memory = tf::write_log(path, 32, 1500, 23);
  const std::vector<std::uint8_t> bytes = tf::read_bytes(path);
  const auto map = tf::layout(memory);
  REQUIRE(bytes.size() == map.back().end);
  REQUIRE(bytes.size() > (std::size_t{1} << 16));
  const auto whole = bem::verify_trace_file(path);
  REQUIRE(whole.ok());
  CHECK(whole.head == memory.head());
  std::uint64_t seed = 12345, wrong = 0;
  for (int sample = 0; sample < 300; ++sample) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const std::size_t offset = static_cast<std::size_t>((seed >> 20) % bytes.size());
    const std::uint8_t x = static_cast<std::uint8_t>(1 + (seed >> 8) % 255);
    auto altered = bytes;
    altered[offset] ^= x;
    bem::trace_file_report r;
    if (sample % 10 == 0) {
      tf::write_bytes(dir.file("altered.trace"), altered);
      r = bem::verify_trace_file(dir.file("altered.trace"));
    } else {
      r = bem::verify_trace_bytes(altered);
    }
    const std::string why = tf::misreport(r, map, offset);
    if (!why.empty() && wrong++ == 0) FAIL_CHECK("byte " << offset << " ^ " << int{x} << ": " << why << r.message);
  }
  CHECK(wrong == 0);
}

TEST_CASE("LOG file: every truncation is detected, with the record it tears and the valid prefix before it") {
  // A cut inside a record is "truncated" at that record (the entry, when it
  // is in one); a cut between records lacks the end record, which only
  // close() writes.
  tf::scratch_folder dir;
  const std::string path = dir.file("cut.trace");
  const bem::trace_log memory = tf::write_log(path, 3, 7);
  const std::vector<std::uint8_t> bytes = tf::read_bytes(path);
  const auto map = tf::layout(memory);
  std::uint64_t wrong = 0;
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    const auto r = bem::verify_trace_bytes(std::span<const std::uint8_t>(bytes).first(length));
    std::string why;
    const auto expect = [&](bool ok, const char* what) {
      if (!ok) why += std::string(what) + "; ";
    };
    expect(!r.ok(), "accepted");
    if (length == 0) {
      expect(r.what == tf::problem::not_a_trace_file && r.exit_code() == 2, "empty file: not a trace file");
    } else {
      const tf::region& g = tf::region_at(map, length);
      // Entries wholly before the cut and checked: those of the region's segment before it.
      const std::uint64_t before = g.kind == tf::region::entry        ? g.entry_index
                                   : g.kind == tf::region::file_header ? 0
                                   : g.kind == tf::region::end_record  ? memory.size()
                                                                       : (&g + 1)->entry_index;
      expect(r.entries == before, "valid prefix: wrong entry count");
      expect(r.head == memory.head_at(before), "valid prefix: wrong head");
      expect(r.exit_code() == 1, "exit code");
      if (length == g.begin && (g.kind == tf::region::segment_header || g.kind == tf::region::end_record)) {
        expect(r.what == tf::problem::missing_end, "a cut between records: missing end");
        expect(r.segments == (g.kind == tf::region::end_record ? tf::segments_of(map) : g.segment),
               "missing end: wrong segment count");
      } else {
        expect(r.what == tf::problem::truncated, "a cut inside a record: truncated");
        // A torn tag cannot say which record it began: it is named by its position.
        const bool torn_end_tag = g.kind == tf::region::end_record && length - g.begin < 4;
        expect(r.bad_segment == (torn_end_tag ? tf::segments_of(map) : g.segment), "truncated: wrong segment");
        expect(r.bad_entry == g.entry_index, "truncated: wrong entry");
      }
    }
    if (!why.empty() && wrong++ == 0) FAIL_CHECK("length " << length << ": " << why << r.message);
  }
  CHECK(wrong == 0);
  // The same through files, at the end of each record.
  for (const tf::region& g : map) {
    tf::write_bytes(dir.file("short.trace"), std::span<const std::uint8_t>(bytes).first(g.end - 1));
    const auto r = bem::verify_trace_file(dir.file("short.trace"));
    CHECK(r.what == tf::problem::truncated);
    CHECK(r.bad_entry == g.entry_index);
  }
  // Trailing bytes, and two logs one after the other.
  auto longer = bytes;
  longer.push_back(0);
  CHECK(bem::verify_trace_bytes(longer).what == tf::problem::trailing_bytes);
  longer.pop_back();
  longer.insert(longer.end(), bytes.begin(), bytes.end());
  const auto twice = bem::verify_trace_bytes(longer);
  CHECK(twice.what == tf::problem::trailing_bytes);
  CHECK(twice.byte_offset == bytes.size());
  CHECK(twice.entries == memory.size());
}

TEST_CASE("LOG file: reordered, dropped or repeated segments and swapped entries are detected where they start") {
  tf::scratch_folder dir;
  const bem::trace_log memory = tf::write_log(dir.file("order.trace"), 4, 18);  // 5 segments: 4, 4, 4, 4, 2
  const std::vector<std::uint8_t> bytes = tf::read_bytes(dir.file("order.trace"));
  const auto map = tf::layout(memory);
  // Segment s's record (header and entries) as bytes.
  std::vector<std::vector<std::uint8_t>> segment;
  std::vector<std::uint8_t> header(bytes.begin(), bytes.begin() + 52), end(bytes.end() - 52, bytes.end());
  for (const tf::region& g : map) {
    if (g.kind == tf::region::segment_header) segment.emplace_back();
    if (g.kind == tf::region::segment_header || g.kind == tf::region::entry)
      segment.back().insert(segment.back().end(), bytes.begin() + static_cast<std::ptrdiff_t>(g.begin),
                            bytes.begin() + static_cast<std::ptrdiff_t>(g.end));
  }
  REQUIRE(segment.size() == 5);
  const auto assemble = [&](const std::vector<std::size_t>& order) {
    std::vector<std::uint8_t> out = header;
    for (std::size_t s : order) out.insert(out.end(), segment[s].begin(), segment[s].end());
    out.insert(out.end(), end.begin(), end.end());
    return out;
  };
  const auto offset_of = [&](const std::vector<std::size_t>& order, std::size_t position) {
    std::size_t at = 52;
    for (std::size_t i = 0; i < position; ++i) at += segment[order[i]].size();
    return at;
  };
  const std::vector<std::size_t> identity{0, 1, 2, 3, 4};
  CHECK(assemble(identity) == bytes);
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = i + 1; j < 5; ++j) {
      auto order = identity;
      std::swap(order[i], order[j]);
      const auto r = bem::verify_trace_bytes(assemble(order));
      CHECK(r.what == tf::problem::segment_out_of_order);
      CHECK(r.bad_segment == i);
      CHECK(r.byte_offset == offset_of(order, i) + 4);
      CHECK(r.entries == 4 * i);
      CHECK(r.segments == i);
    }
    auto dropped = identity;
    dropped.erase(dropped.begin() + static_cast<std::ptrdiff_t>(i));
    const auto d = bem::verify_trace_bytes(assemble(dropped));
    // Without its last segment the file is consistent up to the end record, which counts 18 entries.
    CHECK(d.what == (i == 4 ? tf::problem::end_mismatch : tf::problem::segment_out_of_order));
    if (i < 4) CHECK(d.bad_segment == i);
    auto repeated = identity;
    repeated.insert(repeated.begin() + static_cast<std::ptrdiff_t>(i), i);
    const auto p = bem::verify_trace_bytes(assemble(repeated));
    CHECK(p.what == tf::problem::segment_out_of_order);
    CHECK(p.bad_segment == i + 1);
  }
  // Two entries of one segment swapped: the chain breaks at the first.
  auto swapped = bytes;
  const tf::region &a = map[1 + 1 + 5 + 1], &b = map[1 + 1 + 5 + 2];  // entries 5 and 6 (segment 1)
  REQUIRE(a.entry_index == 5);
  REQUIRE(b.entry_index == 6);
  std::vector<std::uint8_t> both(bytes.begin() + static_cast<std::ptrdiff_t>(b.begin),
                                 bytes.begin() + static_cast<std::ptrdiff_t>(b.end));
  both.insert(both.end(), bytes.begin() + static_cast<std::ptrdiff_t>(a.begin),
              bytes.begin() + static_cast<std::ptrdiff_t>(a.end));
  std::copy(both.begin(), both.end(), swapped.begin() + static_cast<std::ptrdiff_t>(a.begin));
  const auto r = bem::verify_trace_bytes(swapped);
  CHECK(r.what == tf::problem::chain_mismatch);
  CHECK(r.bad_entry == 5);
  CHECK(r.bad_segment == 1);
}

TEST_CASE("LOG file: a file that is not a trace log gets a clear verdict and exit code 2") {
  tf::scratch_folder dir;
  const auto check = [&](const std::string& path, tf::problem what, int exit_code, const std::string& says) {
    const auto r = bem::verify_trace_file(path);
    CHECK(r.what == what);
    CHECK(r.exit_code() == exit_code);
    CHECK_MESSAGE(r.message.find(says) != std::string::npos, r.message);
  };
  const auto text = [](std::string_view s) { return std::vector<std::uint8_t>(s.begin(), s.end()); };
  tf::write_bytes(dir.file("empty"), {});
  check(dir.file("empty"), tf::problem::not_a_trace_file, 2, "the file is empty");
  tf::write_bytes(dir.file("text"), text("step,kind\n0,1\n1,1\n2,2\n3,1\n4,2\n5,1\n6,1\n7,2\n8,1\n9,2\n0,1\n1,1\n2,2\n"));
  check(dir.file("text"), tf::problem::not_a_trace_file, 2, "does not start with \"BEMTRACE\"");
  bem::trace_log memory;
  memory.append(tf::entry_for(1));
  tf::write_bytes(dir.file("image"), memory.image());
  check(dir.file("image"), tf::problem::not_a_trace_file, 2, "read it with trace_log::load");
  check(dir.file("missing"), tf::problem::unreadable, 2, "No such file or directory");
  check(dir.path.string(), tf::problem::unreadable, 2, "Is a directory");
  // A header of another version (its checksum right): not one this reader knows.
  const auto header = [](std::uint32_t version, std::uint64_t S) {
    std::vector<std::uint8_t> h{'B', 'E', 'M', 'T', 'R', 'A', 'C', 'E'};
    for (const auto& part : {tf::u_le(version, 4), tf::u_le(S, 8)}) h.insert(h.end(), part.begin(), part.end());
    const auto sum = bem::sha256(std::span<const std::uint8_t>(h));
    h.insert(h.end(), sum.begin(), sum.end());
    return h;
  };
  tf::write_bytes(dir.file("v2"), header(2, 256));
  check(dir.file("v2"), tf::problem::unsupported_version, 2, "version 2 (byte 8); this reader knows version 1");
  // A log whose writer stopped after the magic: a trace file, torn.
  tf::write_bytes(dir.file("torn"), text("BEMTR"));
  check(dir.file("torn"), tf::problem::truncated, 1, "inside its 52-byte header");
  tf::write_bytes(dir.file("s0"), header(1, 0));
  check(dir.file("s0"), tf::problem::bad_file_header, 1, "segment size 0");
  // A header that is right, with nothing after it: no end record.
  tf::write_bytes(dir.file("header-only"), header(1, 256));
  check(dir.file("header-only"), tf::problem::missing_end, 1, "after 0 segments (0 entries), without the end record");
}

TEST_CASE("LOG file: the verify command's lines and exit codes") {
  tf::scratch_folder dir;
  const std::string path = dir.file("cmd.trace");
  const bem::trace_log memory = tf::write_log(path, 3, 7);
  std::ostringstream valid;
  CHECK(bem::detail::trace_file_verify_main(path, valid) == 0);
  CHECK(valid.str() == path + ": valid trace log: 7 entries in 3 segments of 3, head " + bem::to_hex(memory.head()) + "\n");

  auto bytes = tf::read_bytes(path);
  const tf::region e4 = tf::layout(memory)[1 + 1 + 3 + 1 + 1];  // entry 4, in segment 1 (a copy: the layout is a temporary)
  REQUIRE(e4.entry_index == 4);
  bytes[e4.begin + 3] ^= 0x10;  // its step
  tf::write_bytes(path, bytes);
  std::ostringstream invalid;
  CHECK(bem::detail::trace_file_verify_main(path, invalid) == 1);
  const std::string at = std::to_string(e4.begin);
  CHECK(invalid.str() == path + ": INVALID trace log: chain mismatch: entry 4 (segment 1, byte " + at +
                             "): its recorded H_5 is not SHA-256(H_4 || entry 4)\n"
                             "first bad entry: 4 (segment 1, byte " + at +
                             "); valid before it: 4 entries, 1 whole segments, head " +
                             bem::to_hex(memory.head_at(4)) + "\n");

  tf::write_bytes(path, std::span<const std::uint8_t>(bytes).first(60));
  std::ostringstream torn;
  CHECK(bem::detail::trace_file_verify_main(path, torn) == 1);
  CHECK(torn.str() == path + ": INVALID trace log: truncated: segment 0 (byte 52): the file ends inside the segment header\n"
                          "first bad segment: 0 (byte 52); valid before it: 0 entries, 0 whole segments, head " +
                          bem::to_hex(bem::trace_log_genesis_hash()) + "\n");

  std::ostringstream missing;
  CHECK(bem::detail::trace_file_verify_main(dir.file("nothing-here"), missing) == 2);
  CHECK(missing.str() == dir.file("nothing-here") + ": unreadable: cannot open it: No such file or directory\n");
}

TEST_CASE("LOG file: 10^6 entries stream in bounded memory, and the verifier reads them in bounded memory") {
  // Payload sizes cycle through 0..15 (a period that divides S), so every
  // full segment holds the same bytes: the log's memory at the end of each
  // segment must be what it was at the end of the second one.
  tf::scratch_folder dir;
  const std::string path = dir.file("million.trace");
  constexpr std::size_t S = 256;
  constexpr std::uint64_t n = 1'000'000;
  const std::size_t heap_before = identity_test::live_heap_bytes;
  std::size_t at_second_segment = 0, heap_at_second_segment = 0;
  std::uint64_t grown = 0, heap_grown = 0;
  bem::sha256_digest head{};
  {
    bem::trace_log log(bem::trace_log_options{S, path, bem::trace_fsync::never});
    bem::trace_entry e;
    e.payload.reserve(16);
    for (std::uint64_t k = 0; k < n; ++k) {
      e.step = k;
      e.kind = static_cast<std::uint32_t>(k % 3);
      e.payload.assign(k % 16, static_cast<std::uint8_t>(k));
      log.append(e);
      if ((k + 1) % (16 * S) != 0 && k + 1 != 2 * S) continue;
      const std::size_t heap = identity_test::live_heap_bytes - heap_before;
      if (k + 1 == 2 * S) {
        at_second_segment = log.memory_bytes();
        heap_at_second_segment = heap;
      } else {
        grown += log.memory_bytes() != at_second_segment ? 1 : 0;
        heap_grown += heap > heap_at_second_segment ? 1 : 0;
      }
    }
    CHECK(log.size() == n);
    CHECK(log.retained_begin() == n / S * S);
    head = log.head();
    // The bound the header states: about S * (2 * largest entry + sizeof(record) + 32) plus a constant.
    const std::size_t largest_entry = 20 + 15 + 32, record = sizeof(bem::trace_entry) + 2 * 32;
    CHECK(at_second_segment > S * record);  // the accounting counts the retained records
    CHECK(at_second_segment <= S * (2 * largest_entry + record + 32) + 8192);
    CHECK(grown == 0);
    // The heap agrees: what the log holds does not grow with the entries.
    CHECK(heap_at_second_segment <= 2 * at_second_segment);
    CHECK(heap_grown == 0);
  }
  // In memory the same accounting grows with the entries.
  bem::trace_log memory;
  for (std::uint64_t k = 0; k < 4 * S; ++k) memory.append(tf::entry_for(k));
  const std::size_t four_segments = memory.memory_bytes();
  for (std::uint64_t k = 4 * S; k < 8 * S; ++k) memory.append(tf::entry_for(k));
  CHECK(memory.memory_bytes() > four_segments + 4 * S * sizeof(bem::trace_entry));

  identity_test::peak_heap_bytes = identity_test::live_heap_bytes;
  const std::size_t heap_base = identity_test::live_heap_bytes;
  const bem::trace_file_report r = bem::verify_trace_file(path);
  const std::size_t verifier_heap = identity_test::peak_heap_bytes - heap_base;
  CHECK_MESSAGE(r.ok(), r.message);
  CHECK(r.entries == n);
  CHECK(r.segments == (n + S - 1) / S);
  CHECK(r.head == head);
  CHECK(verifier_heap <= 96 * 1024);  // its 64 KiB buffer and the report's strings
}

namespace {
namespace tf {
/// Lowers the file-size limit for one test and restores it, with SIGXFSZ,
/// however the test ends (a write past the limit then fails with EFBIG).
struct file_size_limit {
  ::rlimit saved{};
  void (*saved_handler)(int) = SIG_DFL;
  file_size_limit() {
    if (::getrlimit(RLIMIT_FSIZE, &saved) != 0) throw std::runtime_error("getrlimit failed");
    saved_handler = std::signal(SIGXFSZ, SIG_IGN);
  }
  file_size_limit(const file_size_limit&) = delete;
  file_size_limit& operator=(const file_size_limit&) = delete;
  void set(std::uintmax_t bytes) const {
    ::rlimit l = saved;
    l.rlim_cur = static_cast<rlim_t>(bytes);
    if (::setrlimit(RLIMIT_FSIZE, &l) != 0) throw std::runtime_error("setrlimit failed");
  }
  void lift() const { ::setrlimit(RLIMIT_FSIZE, &saved); }
  ~file_size_limit() {
    lift();
    std::signal(SIGXFSZ, saved_handler);
  }
};
}  // namespace tf
}  // namespace

TEST_CASE("LOG file: a write that fails leaves the log and its file as they were, and can be retried") {
  tf::scratch_folder dir;
  const std::string path = dir.file("full.trace");
  const auto entry = [](std::uint64_t k) {
    return bem::trace_entry{k, 1, std::vector<std::uint8_t>(8, static_cast<std::uint8_t>(k))};
  };
  // On disk an entry is 20 + 8 + 32 = 60 bytes; a segment of 4 is 100 + 240 = 340.
  tf::file_size_limit limit;
  bem::trace_log memory(4);
  bem::trace_log log(bem::trace_log_options{4, path});
  limit.set(52 + 340 + 170);  // segment 1 fits only in part
  for (std::uint64_t k = 0; k < 7; ++k) {
    memory.append(entry(k));
    log.append(entry(k));
  }
  REQUIRE(std::filesystem::file_size(path) == 52 + 340);
  const std::string write_failed = path + ": write failed";
  CHECK_THROWS_WITH_AS(log.append(entry(7)), doctest::Contains(write_failed.c_str()), std::system_error);
  CHECK(log.size() == 7);
  CHECK(log.head() == memory.head());
  CHECK(log.verify() == bem::trace_log::npos);
  CHECK(std::filesystem::file_size(path) == 52 + 340);  // the part written was cut off
  const auto prefix = bem::verify_trace_file(path);
  CHECK(prefix.what == tf::problem::missing_end);
  CHECK(prefix.entries == 4);
  CHECK(prefix.head == memory.head_at(4));

  limit.lift();  // room again: the same append goes in as if nothing had failed
  memory.append(entry(7));
  CHECK(log.append(entry(7)) == memory.head());
  for (std::uint64_t k = 8; k < 10; ++k) {
    memory.append(entry(k));
    log.append(entry(k));
  }
  const auto written = std::filesystem::file_size(path);
  CHECK(written == 52 + 2 * 340);
  limit.set(written + 100);  // the last segment (220 bytes) and the end record (52) do not fit
  CHECK_THROWS_AS(log.close(), std::system_error);
  CHECK_FALSE(log.closed());
  CHECK(std::filesystem::file_size(path) == written);
  limit.lift();
  log.close();
  const auto r = bem::verify_trace_file(path);
  CHECK_MESSAGE(r.ok(), r.message);
  CHECK(r.entries == 10);
  CHECK(r.head == memory.head());
}

TEST_CASE("LOG file: a file that cannot be created or written is an error that names it") {
  CHECK_THROWS_WITH_AS(bem::trace_log(bem::trace_log_options{4, "/no-such-folder/run.trace"}),
                       doctest::Contains("trace log file /no-such-folder/run.trace: cannot be created"),
                       std::system_error);
  if (std::filesystem::exists("/dev/full"))  // every write fails with ENOSPC
    CHECK_THROWS_WITH_AS(bem::trace_log(bem::trace_log_options{4, "/dev/full"}),
                         doctest::Contains("trace log file /dev/full: write failed"), std::system_error);
  tf::scratch_folder dir;
  CHECK_THROWS_AS(bem::trace_log(bem::trace_log_options{0, dir.file("zero.trace")}), std::invalid_argument);
  CHECK_FALSE(std::filesystem::exists(dir.file("zero.trace")));
}

TEST_CASE("LOG file: the example of docs/identity-and-log.md") {
  tf::scratch_folder dir;
  const std::string path = dir.file("run.trace");
  {
    // The example of the guide, as it is there.
    bem::trace_log log(bem::trace_log_options{.segment_entries = 256, .file = path});
    for (std::uint64_t step = 0; step < 1000; ++step) log.append({step, /*kind*/ 1, {0xbe, 0xef}});
    const bem::sha256_digest head = log.head();  // keep it elsewhere
    log.close();                                 // the last segment and the end record

    const bem::trace_file_report report = bem::verify_trace_file(path);
    // report.ok(), report.entries == 1000, report.segments == 4, report.head == head
    CHECK(report.ok());
    CHECK(report.entries == 1000);
    CHECK(report.segments == 4);
    CHECK(report.head == head);
    // The head the guide quotes.
    CHECK(bem::to_hex(head) == "03da9ab6e7b354a081e9ba8e48d2616569963f38d831427fd93ab78e9ca4cea5");
  }
}
