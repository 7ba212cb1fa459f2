#include "allocation_hooks.hpp"

#include <bem/machine/trace_log.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

bem::trace_entry make_entry(std::uint64_t step, std::uint32_t kind, std::string_view text) {
  return {step, kind, std::vector<std::uint8_t>(text.begin(), text.end())};
}

// The chain written out byte by byte, independently of serialize_trace_entry.
std::vector<std::uint8_t> le(std::uint64_t v, int n) {
  std::vector<std::uint8_t> out;
  for (int i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  return out;
}

bem::sha256_digest next_by_hand(const bem::sha256_digest& h, const bem::trace_entry& e) {
  std::vector<std::uint8_t> m(h.begin(), h.end());
  for (const auto& part : {le(e.step, 8), le(e.kind, 4), le(e.payload.size(), 8), e.payload})
    m.insert(m.end(), part.begin(), part.end());
  return bem::sha256(std::span<const std::uint8_t>(m));
}

// A small log with distinct entries, payloads of several lengths (0 included).
bem::trace_log small_log(std::size_t segment = 3) {
  bem::trace_log log(segment);
  const char* payloads[] = {"", "x", "route", "expert 17 fired", "\x01\x02\x03", "ucb", "patch accepted"};
  for (std::uint32_t k = 0; k < 7; ++k) log.append(make_entry(10 + k, k % 3, payloads[k]));
  return log;
}

// Offsets of each entry's record in an image: [begin, end).
std::vector<std::pair<std::size_t, std::size_t>> record_spans(const bem::trace_log& log) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t at = 16;
  for (std::size_t k = 0; k < log.size(); ++k) {
    const std::size_t len = 20 + log.entry(k).payload.size() + 32;
    spans.emplace_back(at, at + len);
    at += len;
  }
  return spans;
}
}  // namespace

TEST_CASE("LOG: genesis and chain values match an independent computation (Python hashlib)") {
  CHECK(bem::trace_log_genesis == "bem trace log v1 genesis H_0");
  CHECK(bem::to_hex(bem::trace_log_genesis_hash()) == "f42ab490d1a0bd6bc527569eb91d1cc830aca575e0f17ba612395c772842c74d");
  bem::trace_log log;
  CHECK(log.empty());
  CHECK(log.head() == bem::trace_log_genesis_hash());
  CHECK(log.verify() == bem::trace_log::npos);
  CHECK(bem::to_hex(log.append(make_entry(0, 1, ""))) == "ead185e32c9674701b6fe3feac958085c1c1fc37d1ee59062d889a9e21f17782");
  CHECK(bem::to_hex(log.append(make_entry(1, 2, "abc"))) == "a81759d9a5a27baefd94fb99cd911db45f061dd9b7fb01343fc04719f47d0e7d");
  bem::trace_entry e{7, 0xFFFFFFFFu, {}};
  for (std::uint8_t i = 0; i < 10; ++i) e.payload.push_back(i);
  CHECK(bem::to_hex(log.append(e)) == "b6ab83f9e09897538fde7720387c1ff22383c795fbeac08040a24dc55075a843");
  CHECK(log.size() == 3);
  CHECK(log.entry(2) == e);
}

TEST_CASE("LOG: H_{k+1} = sha256(H_k || serialize(entry_k)) at every step; entries are kept as appended") {
  const auto log = small_log();
  auto h = bem::trace_log_genesis_hash();
  CHECK(log.head_at(0) == h);
  for (std::size_t k = 0; k < log.size(); ++k) {
    h = next_by_hand(h, log.entry(k));
    CHECK(log.head_at(k + 1) == h);
    CHECK(bem::trace_chain_next(log.head_at(k), log.entry(k)) == h);
    CHECK(log.entry(k).step == 10 + k);
    CHECK(log.entry_digest(k) == bem::sha256(std::span<const std::uint8_t>(bem::serialize_trace_entry(log.entry(k)))));
  }
  CHECK(log.head() == h);
  CHECK(log.verify() == bem::trace_log::npos);
  CHECK_THROWS_AS(log.entry(log.size()), std::out_of_range);
  CHECK_THROWS_AS(log.head_at(log.size() + 1), std::out_of_range);
  CHECK_THROWS_AS(bem::trace_log(0), std::invalid_argument);
  // The serialization is the documented one.
  const auto bytes = bem::serialize_trace_entry(make_entry(0x0102030405060708ull, 0xA0B0C0D0u, "hi"));
  const std::vector<std::uint8_t> expected = {8, 7, 6, 5, 4, 3, 2, 1, 0xD0, 0xC0, 0xB0, 0xA0,
                                              2, 0, 0, 0, 0, 0, 0, 0, 'h', 'i'};
  CHECK(bytes == expected);
}

TEST_CASE("LOG: the same entries give the same head; any different entry gives a different head") {
  const auto a = small_log(), b = small_log();
  CHECK(a.head() == b.head());
  bem::trace_log c(3);
  for (std::size_t k = 0; k < a.size(); ++k) {
    auto e = a.entry(k);
    if (k == 4) e.kind ^= 1;
    c.append(e);
    CHECK((c.head() == a.head_at(k + 1)) == (k < 4));
  }
}

TEST_CASE("LOG: image round trip") {
  const auto log = small_log();
  const auto image = log.image();
  const auto copy = bem::trace_log::load(image, 3);
  CHECK(copy.size() == log.size());
  CHECK(copy.verify() == bem::trace_log::npos);
  CHECK(copy.head() == log.head());
  for (std::size_t k = 0; k < log.size(); ++k) CHECK(copy.entry(k) == log.entry(k));
  CHECK(copy.image() == image);
  CHECK(bem::trace_log::load(bem::trace_log().image()).empty());
  CHECK(record_spans(log).back().second == image.size());
}

TEST_CASE("LOG: altering any single byte of an image to any other value is detected "
          "(exhaustive over the bytes of a 7-entry log and all 255 changes)") {
  const auto log = small_log();
  const auto image = log.image();
  const auto spans = record_spans(log);
  long undetected = 0, wrong_index = 0, rejected = 0, flagged = 0;
  for (std::size_t at = 0; at < image.size(); ++at) {
    // The entry whose record holds this byte (npos for the header).
    std::size_t owner = bem::trace_log::npos;
    for (std::size_t k = 0; k < spans.size(); ++k)
      if (at >= spans[k].first && at < spans[k].second) owner = k;
    for (unsigned x = 1; x < 256; ++x) {
      auto altered = image;
      altered[at] ^= static_cast<std::uint8_t>(x);
      try {
        const auto copy = bem::trace_log::load(altered, 3);
        const std::size_t first = copy.verify();
        ++flagged;
        if (first == bem::trace_log::npos) ++undetected;
        else if (first != owner) ++wrong_index;
      } catch (const std::invalid_argument&) {
        ++rejected;  // not an image any more (magic, count or a length field)
      }
    }
  }
  CHECK(undetected == 0);
  CHECK(wrong_index == 0);  // verify() names the entry that was altered
  CHECK(flagged + rejected == static_cast<long>(image.size()) * 255);
  CHECK(flagged > rejected);  // most alterations load and are caught by the chain
}

TEST_CASE("LOG: reordering, dropping or duplicating entries is detected at the first changed position") {
  const auto log = small_log();
  const auto image = log.image();
  const auto spans = record_spans(log);
  const auto record = [&](std::size_t k) {
    return std::vector<std::uint8_t>(image.begin() + static_cast<std::ptrdiff_t>(spans[k].first),
                                     image.begin() + static_cast<std::ptrdiff_t>(spans[k].second));
  };
  const auto assemble = [&](const std::vector<std::size_t>& order) {
    std::vector<std::uint8_t> out(image.begin(), image.begin() + 8);
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(order.size() >> (8 * i)));
    for (std::size_t k : order) {
      const auto r = record(k);
      out.insert(out.end(), r.begin(), r.end());
    }
    return out;
  };
  std::vector<std::size_t> identity(log.size());
  for (std::size_t k = 0; k < identity.size(); ++k) identity[k] = k;
  CHECK(assemble(identity) == image);
  for (std::size_t i = 0; i < log.size(); ++i) {
    for (std::size_t j = i + 1; j < log.size(); ++j) {
      auto order = identity;
      std::swap(order[i], order[j]);
      CHECK(bem::trace_log::load(assemble(order)).verify() == i);
    }
    auto dropped = identity;
    dropped.erase(dropped.begin() + static_cast<std::ptrdiff_t>(i));
    const auto d = bem::trace_log::load(assemble(dropped));
    // Dropping the last entry leaves a consistent but shorter log: only a kept head reveals it.
    if (i + 1 == log.size()) {
      CHECK(d.verify() == bem::trace_log::npos);
      CHECK(d.head() != log.head());
    } else {
      CHECK(d.verify() == i);
    }
    auto duplicated = identity;
    duplicated.insert(duplicated.begin() + static_cast<std::ptrdiff_t>(i), i);
    CHECK(bem::trace_log::load(assemble(duplicated)).verify() == i + 1);
  }
}

TEST_CASE("LOG: malformed images are rejected with the byte offset") {
  const auto image = small_log().image();
  for (std::size_t n = 0; n < image.size(); ++n)
    CHECK_THROWS_AS(bem::trace_log::load(std::span<const std::uint8_t>(image).first(n)), std::invalid_argument);
  auto longer = image;
  longer.push_back(0);
  CHECK_THROWS_WITH_AS(bem::trace_log::load(longer), doctest::Contains("trailing bytes"), std::invalid_argument);
  auto bad_magic = image;
  bad_magic[0] = 'X';
  CHECK_THROWS_WITH_AS(bem::trace_log::load(bad_magic), doctest::Contains("bad magic at byte 0"),
                       std::invalid_argument);
  auto huge_count = image;
  huge_count[15] = 0xFF;
  CHECK_THROWS_AS(bem::trace_log::load(huge_count), std::invalid_argument);
}

TEST_CASE("LOG: segment roots are Merkle roots over the entry digests of fixed-size segments") {
  const auto log = small_log(3);  // 7 entries: segments of 3, 3, 1
  CHECK(log.segment_entries() == 3);
  REQUIRE(log.segment_count() == 3);
  for (std::size_t s = 0; s < 3; ++s) {
    std::vector<bem::sha256_digest> leaves;
    for (std::size_t k = 3 * s; k < std::min<std::size_t>(3 * s + 3, log.size()); ++k)
      leaves.push_back(bem::sha256(std::span<const std::uint8_t>(bem::serialize_trace_entry(log.entry(k)))));
    CHECK(log.segment_root(s) == bem::merkle_root(leaves));
  }
  CHECK(log.segment_root(2) == bem::merkle_leaf_hash(log.entry_digest(6)));
  CHECK_THROWS_AS(log.segment_root(3), std::out_of_range);
  CHECK(bem::trace_log().segment_count() == 0);

  // A change in entry 4 changes segment 1's root and no other.
  bem::trace_log other(3);
  for (std::size_t k = 0; k < log.size(); ++k) {
    auto e = log.entry(k);
    if (k == 4) e.payload.push_back(0);
    other.append(e);
  }
  CHECK(other.segment_root(0) == log.segment_root(0));
  CHECK(other.segment_root(1) != log.segment_root(1));
  CHECK(other.segment_root(2) == log.segment_root(2));

  // A full segment's root no longer changes; the partial one grows.
  auto growing = small_log(3);
  const auto full = growing.segment_root(1), partial = growing.segment_root(2);
  growing.append(make_entry(99, 0, "more"));
  CHECK(growing.segment_root(1) == full);
  CHECK(growing.segment_root(2) != partial);
  CHECK(growing.segment_count() == 3);
}

TEST_CASE("LOG: entries, digests, heads and segment roots stay right across many chunks of storage") {
  // 1000 entries: storage chunks of 256 and segments of 100 (which straddle
  // chunks), every value checked against an independent computation.
  bem::trace_log log(100);
  bem::sha256_digest h = bem::trace_log_genesis_hash();
  std::vector<bem::trace_entry> entries;
  std::vector<bem::sha256_digest> heads{h};
  for (std::uint64_t k = 0; k < 1000; ++k) {
    entries.push_back(make_entry(k, static_cast<std::uint32_t>(k % 5), std::string(k % 37, static_cast<char>('a' + k % 26))));
    h = next_by_hand(h, entries.back());
    heads.push_back(h);
    CHECK(log.append(entries.back()) == h);
  }
  REQUIRE(log.size() == 1000);
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < 1000; ++k) {
    wrong += log.entry(k) == entries[k] ? 0 : 1;
    wrong += log.head_at(k + 1) == heads[k + 1] ? 0 : 1;
    wrong += log.entry_digest(k) ==
                     bem::sha256(std::span<const std::uint8_t>(bem::serialize_trace_entry(entries[k])))
                 ? 0
                 : 1;
  }
  CHECK(wrong == 0);
  REQUIRE(log.segment_count() == 10);
  for (std::size_t s = 0; s < 10; ++s) {
    std::vector<bem::sha256_digest> leaves;
    for (std::size_t k = 100 * s; k < 100 * s + 100; ++k)
      leaves.push_back(bem::sha256(std::span<const std::uint8_t>(bem::serialize_trace_entry(entries[k]))));
    CHECK(log.segment_root(s) == bem::merkle_root(leaves));
  }
  CHECK(log.verify() == bem::trace_log::npos);
  const auto copy = bem::trace_log::load(log.image(), 100);
  CHECK(copy.image() == log.image());
  CHECK(copy.verify() == bem::trace_log::npos);
}

TEST_CASE("LOG: an append that fails to allocate leaves the log as it was") {
  // Every allocation an append makes is made to fail in turn, also those
  // that start a new leaf of storage (at 256 entries, with a new root above
  // the first leaf) and a new inner node (at 65,536, with a third level).
  for (const std::size_t before : {std::size_t{3}, std::size_t{256}, std::size_t{65536}}) {
    bem::trace_log reference(2);
    for (std::size_t k = 0; k < before; ++k) reference.append(make_entry(k, 1, "entry"));
    const auto next = make_entry(before, 2, "the one that may fail");
    std::size_t failures = 0;
    for (long fail = 0;; ++fail) {
      bem::trace_log log = bem::trace_log::load(reference.image(), 2);
      const auto image = log.image();
      bool threw = false;
      identity_test::allocations_until_failure = fail;
      try {
        log.append(next);
      } catch (const std::bad_alloc&) {
        threw = true;
      }
      identity_test::allocations_until_failure = -1;
      if (!threw) break;  // every allocation of the append has failed once
      ++failures;
      CHECK(log.size() == before);
      CHECK(log.image() == image);
      CHECK(log.head() == reference.head());
      // The log goes on as if the failed append had never been tried.
      log.append(next);
      auto expected = reference;
      expected.append(next);
      CHECK(log.image() == expected.image());
      CHECK(log.verify() == bem::trace_log::npos);
      CHECK(log.segment_root(log.segment_count() - 1) == expected.segment_root(expected.segment_count() - 1));
      CHECK(log.entry_digest(before) == expected.entry_digest(before));
    }
    CHECK(failures >= 2);  // the serialized bytes and the stored payload, at least
  }
}

TEST_CASE("LOG: no append allocates more as the log grows") {
  // The fast path appends one entry per step and must cost the same at any
  // t. The largest single allocation of appends 4,096 .. 262,400 (past the
  // tree's growth at 65,536 and where a table of 1,024 chunks would be
  // copied to double) is no larger than that of the first 4,096: a leaf.
  bem::trace_log log;
  const auto largest_over = [&](std::uint64_t from, std::uint64_t to) {
    identity_test::largest_allocation = 0;
    identity_test::tracking_allocations = true;
    for (std::uint64_t k = from; k < to; ++k) log.append(make_entry(k, 1, "x"));
    identity_test::tracking_allocations = false;
    return identity_test::largest_allocation;
  };
  const std::size_t early = largest_over(0, 4096);
  const std::size_t late = largest_over(4096, 1024 * 256 + 256);
  CHECK(early > 0);
  CHECK(late <= early);
  CHECK(log.size() == 1024 * 256 + 256);
  CHECK(log.entry(70000).step == 70000);
  CHECK(log.verify() == bem::trace_log::npos);
  // Copies and moves keep every entry; a moved-from log is empty.
  bem::trace_log copy = log;
  CHECK(copy.head() == log.head());
  CHECK(copy.entry(262399).step == 262399);
  bem::trace_log moved = std::move(copy);
  CHECK(moved.head() == log.head());
  CHECK(copy.size() == 0);  // NOLINT(bugprone-use-after-move): moved-from state is specified
  CHECK(copy.head() == bem::trace_log_genesis_hash());
  copy.append(make_entry(0, 1, "x"));
  CHECK(copy.entry(0) == log.entry(0));
}
