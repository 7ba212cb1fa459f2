// The 2.1 loops (plugins/bitalu/kernels.hpp) against a plain re-implementation
// with the run-time BIT-ALU forms and word-by-word arithmetic: the checksum
// the task reports is the one the documented pattern gives, and it depends
// on the operands (a checksum that does not cannot show a wrong result: the
// popcount checksum was 0 for every seed until its input stopped repeating).
#include "../../plugins/bitalu/kernels.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>

namespace {

template <std::size_t W>
std::uint64_t reference(bitalu::op o, const bitalu::operands<W>& in, std::uint64_t rounds) {
  using bitalu::op;
  using L = bem::lane_word<W>;
  const auto add_words = [](const L& a, const L& b) {
    L r;
    for (std::size_t w = 0; w < W / 64; ++w) r.set_word(w, a.word(w) + b.word(w));
    return r;
  };
  std::uint64_t sum = 0;
  for (std::size_t j = 0; j < bitalu::streams_of(o, W); ++j) {
    L x = in.x[j], c;
    const L y = in.y[j];
    std::uint64_t n = 0;
    for (std::uint64_t i = 0; i < rounds; ++i) {
      switch (o) {
        case op::and_: x = x & y; break;
        case op::or_: x = x | y; break;
        case op::xor_: x = x ^ y; break;
        case op::not_: x = ~x; break;
        case op::andnot: x = bem::andnot(x, y); break;
        case op::shift_left: x = bem::shift_left(x, bitalu::shift_k); break;
        case op::shift_right: x = bem::shift_right(x, bitalu::shift_k); break;
        case op::rotate_left: x = bem::rotate_left(x, bitalu::shift_k); break;
        case op::rotate_right: x = bem::rotate_right(x, bitalu::shift_k); break;
        case op::blend: x = bem::blend(y, x, c); break;
        case op::popcount:
        case op::parity: x = add_words(x, y); break;
      }
      if (o == op::popcount) {
        L counts;
        for (std::size_t w = 0; w < W / 64; ++w) counts.set_word(w, static_cast<std::uint64_t>(std::popcount(x.word(w))));
        c = add_words(c, counts);
      } else if (o == op::parity) {
        n += bem::parity(x) ? 1u : 0u;
      } else {
        c = add_words(c, x);
      }
    }
    for (std::size_t w = 0; w < W / 64; ++w) sum += c.word(w);
    sum += n << (16 * (j % 4));
  }
  return sum;
}

template <std::size_t W>
void check_kernels() {
  const auto in = bitalu::make_operands<W>(42), other = bitalu::make_operands<W>(43);
  for (const auto& [o, name] : bitalu::op_names) {
    CAPTURE(std::string(name));
    for (const std::uint64_t rounds : {1u, 2u, 7u, 1000u}) {
      CAPTURE(rounds);
      CHECK(bitalu::run_op<W>(o, in, rounds) == reference<W>(o, in, rounds));
    }
    // Other operands, another checksum. An odd round count: over an even
    // one, not's sum is (x + ~x) per pair, -1 whatever x; still not 0.
    CHECK(bitalu::run_op<W>(o, in, 1001) != bitalu::run_op<W>(o, other, 1001));
    CHECK(bitalu::run_op<W>(o, in, 1000) != 0);
  }
}

}  // namespace

TEST_CASE("2.1 kernels: checksums as the documented pattern gives them, depending on the operands") {
  check_kernels<64>();
  check_kernels<128>();
  check_kernels<256>();
  check_kernels<512>();
  check_kernels<1024>();
}
