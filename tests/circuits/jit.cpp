// Run-time generated code (bem::jit_circuit), checked in layers so that a
// CI machine without AVX-512 (or AVX2) still checks all of it but the
// running: the encoder's bytes (pinned, each disassembled by objdump when
// written), each back end's program (fusion, lowering) by an interpreter of
// its own, the register allocation by a simulator of its instructions (with
// few registers, so that spills and reloads are many), and then the code
// itself on every word type and every back end this CPU has, against the
// reference interpreter and, exhaustively, against the scalar semantics.
#include "helpers.hpp"

#include <bem/circuits/convert.hpp>
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/jit.hpp>
#include <bem/circuits/jit_register_allocation.hpp>
#include <bem/circuits/random_circuit.hpp>
#include <bem/machine/lanes.hpp>
#include <bem/prng.hpp>

#include <doctest/doctest.h>

#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <cstdint>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

using namespace circuit_test;
using bem::jit_backend;

namespace {

/// A bit-sliced word of 32 lanes: no code is generated for it.
struct word32 {
  std::uint32_t v = 0;
  friend word32 operator&(word32 a, word32 b) { return {a.v & b.v}; }
  friend word32 operator|(word32 a, word32 b) { return {a.v | b.v}; }
  friend word32 operator^(word32 a, word32 b) { return {a.v ^ b.v}; }
  friend word32 operator~(word32 a) { return {~a.v}; }
  friend bool operator==(word32, word32) = default;
};

/// The circuits every layer is checked on.
std::vector<bem::gate_list> test_lists() {
  std::vector<bem::gate_list> lists;
  for (std::size_t g : {8, 64, 256, 512}) lists.push_back(bem::random_gate_list({32, 8, g, 64}, 700 + g));
  for (std::uint64_t s = 1; s <= 12; ++s) lists.push_back(edge_list(3 + s % 9, 20 + 30 * s, 1 + s % 7, s));
  // Many values live at once: 200 gates all outputs.
  lists.push_back(edge_list(16, 200, 200, 99));
  // No gates: outputs are inputs (one repeated).
  lists.push_back(bem::gate_list(4, {}, {2, 0, 2}));
  // Constants and identities only.
  lists.push_back(bem::gate_list(2,
                                 {{bem::gate_op::xor_, 0, 0, 0, 0},
                                  {bem::gate_op::and_, 0, 1, 1, 0},
                                  {bem::gate_op::ternary, 0xFF, 0, 1, 1},
                                  {bem::gate_op::not_, 0, 2, 0, 0}},
                                 {2, 3, 4, 5}));
  // An expert's circuit through each conversion (chains of ANDs, muxes).
  lists.push_back(bem::to_gate_list(bem::random_anf(12, 4, 60, 5)));
  lists.push_back(bem::to_gate_list(bem::random_robdd(12, 4, 60, 6)));
  return lists;
}

std::vector<std::uint64_t> random_words(std::size_t n, std::uint64_t seed) {
  bem::xoshiro256ss rng(seed);
  std::vector<std::uint64_t> in(n);
  for (auto& x : in) x = rng.next();
  return in;
}

/// A table of 3 slots applied bit by bit (the vpternlog convention).
std::uint64_t apply_table(std::uint8_t tt, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  std::uint64_t r = 0;
  for (unsigned idx = 0; idx < 8; ++idx)
    if ((tt >> idx) & 1u) r |= ((idx & 4u) ? a : ~a) & ((idx & 2u) ? b : ~b) & ((idx & 1u) ? c : ~c);
  return r;
}

/// The program of a back end evaluated op by op on 64-bit words.
std::vector<std::uint64_t> run_program(const bem::detail::jit_program& p, const std::vector<std::uint64_t>& in) {
  std::vector<std::uint64_t> v(in);
  for (const auto& op : p.ops) {
    const std::uint64_t a = op.k > 0 ? v.at(op.arg[0]) : 0, b = op.k > 1 ? v.at(op.arg[1]) : 0,
                        c = op.k > 2 ? v.at(op.arg[2]) : 0;
    v.push_back(apply_table(op.tt, a, b, c));
  }
  std::vector<std::uint64_t> out;
  for (auto o : p.outputs) out.push_back(v.at(o));
  return out;
}

/// The allocated instructions executed on 64-bit words: registers start as
/// junk, every memory access is bounds-checked and `in` is never written.
std::vector<std::uint64_t> simulate(const bem::detail::jit_allocation& a, const bem::detail::jit_target& t,
                                    std::vector<std::uint64_t> in, std::size_t m, std::size_t scratch_words) {
  using bem::detail::jit_area;
  using bem::detail::jit_kind;
  std::vector<std::uint64_t> out(m, 0x5a5a5a5a5a5a5a5aull), scratch(scratch_words, 0xa5a5a5a5a5a5a5a5ull);
  std::vector<std::uint64_t> reg = random_words(32, 4242);
  if (!t.ternlog) reg[t.ones_reg] = ~0ull;
  auto area = [&](jit_area x) -> std::vector<std::uint64_t>& {
    return x == jit_area::in ? in : x == jit_area::out ? out : scratch;
  };
  for (const auto& i : a.code) {
    REQUIRE(i.dst < t.registers);
    REQUIRE(i.src1 < t.registers);
    if (i.mem) REQUIRE(i.word < area(i.area).size());
    const std::uint64_t s2 = i.mem ? area(i.area)[i.word] : reg.at(i.src2);
    switch (i.kind) {
      case jit_kind::load: reg[i.dst] = s2; break;
      case jit_kind::store:
        REQUIRE(i.area != jit_area::in);
        area(i.area)[i.word] = reg[i.src1];
        break;
      case jit_kind::copy: reg[i.dst] = reg.at(i.src2); break;
      case jit_kind::and_: reg[i.dst] = reg[i.src1] & s2; break;
      case jit_kind::or_: reg[i.dst] = reg[i.src1] | s2; break;
      case jit_kind::xor_: reg[i.dst] = reg[i.src1] ^ s2; break;
      case jit_kind::andn: reg[i.dst] = ~reg[i.src1] & s2; break;
      case jit_kind::ternlog:
        REQUIRE(t.ternlog);
        reg[i.dst] = apply_table(i.imm, reg[i.dst], reg[i.src1], s2);
        break;
      case jit_kind::zero: reg[i.dst] = 0; break;
      case jit_kind::ones: reg[i.dst] = ~0ull; break;
    }
    if (!t.ternlog && i.kind != jit_kind::store) REQUIRE(i.dst != t.ones_reg);
  }
  return out;
}

/// The back ends to run here: every one up to the best this CPU has.
std::vector<jit_backend> runnable_backends() {
  std::vector<jit_backend> b{jit_backend::interpreter};
  if (bem::best_jit_backend() >= jit_backend::avx2) b.push_back(jit_backend::avx2);
  if (bem::best_jit_backend() >= jit_backend::avx512) b.push_back(jit_backend::avx512);
  return b;
}

template <class W>
void check_word_type(const bem::gate_list& list, jit_backend backend, std::uint64_t seed) {
  const bem::jit_circuit c(list, {backend});
  const auto in = random_inputs<W>(list.inputs(), seed);
  const auto got = eval(c, in), want = eval_reference(list, in);
  for (std::size_t k = 0; k < want.size(); ++k) {
    CAPTURE(k);
    REQUIRE(got[k] == want[k]);
  }
  // In place: the inputs as scratch's first n words.
  std::vector<W> scratch(c.scratch_size()), out(c.outputs());
  std::copy(in.begin(), in.end(), scratch.begin());
  c.evaluate(std::span<const W>(scratch.data(), in.size()), std::span<W>(out), std::span<W>(scratch));
  for (std::size_t k = 0; k < want.size(); ++k) REQUIRE(out[k] == want[k]);
}

}  // namespace

TEST_CASE("jit: the encoder writes the intended instructions") {
  using namespace bem::detail;
  using G = x86_gpr;
  constexpr auto m0f = x86_map::m0f, m0f3a = x86_map::m0f3a;
  constexpr auto p66 = x86_pp::p66, pf3 = x86_pp::pf3;
  struct expect {
    const char* what;  // as objdump disassembles the bytes
    std::vector<std::uint8_t> bytes;
    void (*write)(x86_assembler&);
  };
  const expect cases[] = {
      {"vmovdqu64 0x40(%rdi),%ymm17", {0x62, 0xe1, 0xfe, 0x28, 0x6f, 0x4f, 0x02},
       [](x86_assembler& a) { a.evex(m0f, pf3, 0x6F, 1, 17, 0, x86_rm::m({G::rdi, 0x40}), 32); }},
      {"vmovdqu64 %zmm3,0x2000(%rdx)", {0x62, 0xf1, 0xfe, 0x48, 0x7f, 0x9a, 0x00, 0x20, 0x00, 0x00},
       [](x86_assembler& a) { a.evex(m0f, pf3, 0x7F, 2, 3, 0, x86_rm::m({G::rdx, 0x2000}), 64); }},
      {"vmovq 0x3f8(%rsi),%xmm20", {0x62, 0xe1, 0xfe, 0x08, 0x7e, 0x66, 0x7f},
       [](x86_assembler& a) { a.evex(m0f, pf3, 0x7E, 0, 20, 0, x86_rm::m({G::rsi, 0x3f8}), 8); }},
      {"vmovq %xmm25,0x400(%rdx)", {0x62, 0x61, 0xfd, 0x08, 0xd6, 0x8a, 0x00, 0x04, 0x00, 0x00},
       [](x86_assembler& a) { a.evex(m0f, p66, 0xD6, 0, 25, 0, x86_rm::m({G::rdx, 0x400}), 8); }},
      {"vmovdqa64 %xmm30,%xmm2", {0x62, 0x91, 0xfd, 0x08, 0x6f, 0xd6},
       [](x86_assembler& a) { a.evex(m0f, p66, 0x6F, 0, 2, 0, x86_rm::r(30), 16); }},
      {"vpandq %ymm31,%ymm16,%ymm8", {0x62, 0x11, 0xfd, 0x20, 0xdb, 0xc7},
       [](x86_assembler& a) { a.evex(m0f, p66, 0xDB, 1, 8, 16, x86_rm::r(31), 32); }},
      {"vpandnq 0x20(%rdi),%ymm1,%ymm25", {0x62, 0x61, 0xf5, 0x28, 0xdf, 0x4f, 0x01},
       [](x86_assembler& a) { a.evex(m0f, p66, 0xDF, 1, 25, 1, x86_rm::m({G::rdi, 0x20}), 32); }},
      {"vporq (%rdx),%zmm7,%zmm12", {0x62, 0x71, 0xc5, 0x48, 0xeb, 0x22},
       [](x86_assembler& a) { a.evex(m0f, p66, 0xEB, 2, 12, 7, x86_rm::m({G::rdx, 0}), 64); }},
      {"vpxorq %xmm5,%xmm6,%xmm7", {0x62, 0xf1, 0xcd, 0x08, 0xef, 0xfd},
       [](x86_assembler& a) { a.evex(m0f, p66, 0xEF, 0, 7, 6, x86_rm::r(5), 16); }},
      {"vpternlogq $0xca,0x1000(%rdx),%ymm17,%ymm3",
       {0x62, 0xf3, 0xf5, 0x20, 0x25, 0x9a, 0x00, 0x10, 0x00, 0x00, 0xca},
       [](x86_assembler& a) {
         a.evex(m0f3a, p66, 0x25, 1, 3, 17, x86_rm::m({G::rdx, 0x1000}), 32);
         a.imm8(0xca);
       }},
      {"vpternlogq $0xe8,%zmm29,%zmm2,%zmm19", {0x62, 0x83, 0xed, 0x48, 0x25, 0xdd, 0xe8},
       [](x86_assembler& a) {
         a.evex(m0f3a, p66, 0x25, 2, 19, 2, x86_rm::r(29), 64);
         a.imm8(0xe8);
       }},
      {"vmovdqu 0x60(%rdi),%ymm9", {0xc5, 0x7e, 0x6f, 0x4f, 0x60},
       [](x86_assembler& a) { a.vex(m0f, pf3, 0x6F, 1, 9, 0, x86_rm::m({G::rdi, 0x60})); }},
      {"vmovdqu %ymm12,0x1000(%rsi)", {0xc5, 0x7e, 0x7f, 0xa6, 0x00, 0x10, 0x00, 0x00},
       [](x86_assembler& a) { a.vex(m0f, pf3, 0x7F, 1, 12, 0, x86_rm::m({G::rsi, 0x1000})); }},
      {"vmovq (%rdi),%xmm3", {0xc5, 0xfa, 0x7e, 0x1f},
       [](x86_assembler& a) { a.vex(m0f, pf3, 0x7E, 0, 3, 0, x86_rm::m({G::rdi, 0})); }},
      {"vmovq %xmm14,0x8(%rdx)", {0xc5, 0x79, 0xd6, 0x72, 0x08},
       [](x86_assembler& a) { a.vex(m0f, p66, 0xD6, 0, 14, 0, x86_rm::m({G::rdx, 8})); }},
      {"vmovdqa %ymm11,%ymm2", {0xc4, 0xc1, 0x7d, 0x6f, 0xd3},
       [](x86_assembler& a) { a.vex(m0f, p66, 0x6F, 1, 2, 0, x86_rm::r(11)); }},
      {"vpand %ymm3,%ymm4,%ymm5", {0xc5, 0xdd, 0xdb, 0xeb},
       [](x86_assembler& a) { a.vex(m0f, p66, 0xDB, 1, 5, 4, x86_rm::r(3)); }},
      {"vpandn 0x40(%rdx),%ymm13,%ymm1", {0xc5, 0x95, 0xdf, 0x4a, 0x40},
       [](x86_assembler& a) { a.vex(m0f, p66, 0xDF, 1, 1, 13, x86_rm::m({G::rdx, 0x40})); }},
      {"vpor %xmm10,%xmm2,%xmm8", {0xc4, 0x41, 0x69, 0xeb, 0xc2},
       [](x86_assembler& a) { a.vex(m0f, p66, 0xEB, 0, 8, 2, x86_rm::r(10)); }},
      {"vpcmpeqd %ymm15,%ymm15,%ymm15", {0xc4, 0x41, 0x05, 0x76, 0xff},
       [](x86_assembler& a) { a.vex(m0f, p66, 0x76, 1, 15, 15, x86_rm::r(15)); }},
      {"endbr64", {0xf3, 0x0f, 0x1e, 0xfa}, [](x86_assembler& a) { a.endbr64(); }},
      {"mov $0x5,%ecx", {0xb9, 0x05, 0x00, 0x00, 0x00}, [](x86_assembler& a) { a.mov_ecx(5); }},
      {"add $0x20,%rdi", {0x48, 0x83, 0xc7, 0x20}, [](x86_assembler& a) { a.add_imm8(G::rdi, 32); }},
      {"add $0x8,%rdx", {0x48, 0x83, 0xc2, 0x08}, [](x86_assembler& a) { a.add_imm8(G::rdx, 8); }},
      {"dec %ecx", {0xff, 0xc9}, [](x86_assembler& a) { a.dec_ecx(); }},
      {"vzeroupper", {0xc5, 0xf8, 0x77}, [](x86_assembler& a) { a.vzeroupper(); }},
      {"ret", {0xc3}, [](x86_assembler& a) { a.ret(); }},
  };
  for (const auto& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    x86_assembler a;
    c.write(a);
    CHECK(a.bytes() == c.bytes);
  }
  // Branches back: rel8 within reach, rel32 beyond.
  x86_assembler near;
  near.dec_ecx();
  near.jnz_back(0);
  CHECK(near.bytes() == std::vector<std::uint8_t>{0xff, 0xc9, 0x75, 0xfc});
  x86_assembler far;
  for (int i = 0; i < 200; ++i) far.ret();
  far.jnz_back(0);
  CHECK(std::vector<std::uint8_t>(far.bytes().end() - 6, far.bytes().end()) ==
        std::vector<std::uint8_t>{0x0f, 0x85, 0x32, 0xff, 0xff, 0xff});  // -206
}

TEST_CASE("jit: every 3-input table lowers to AND, OR, XOR, ANDN and NOT (AVX2)") {
  const bem::gate_list list = every_ternary_table();
  const auto p = bem::detail::jit_program_of(list, jit_backend::avx2);
  for (const auto& op : p.ops) {
    const bool plain = op.k == 0 || (op.k == 1 && op.tt == bem::detail::tt1_not) ||
                       (op.k == 2 && bem::detail::jit_is_plain_binary(op.tt) && op.tt != bem::detail::tt2_b_andn_a);
    CHECK_UNARY(plain);
  }
  const auto out = run_program(p, exhaustive_inputs<std::uint64_t>(3));
  for (unsigned tt = 0; tt < 256; ++tt) CHECK((out[tt] & 0xFF) == tt);
  // At most 6 plain operations for any table (Shannon expansion on the best
  // variable); the 2.3 circuits' own: mux 3, majority 4, xor3 2.
  for (unsigned tt = 0; tt < 256; ++tt) CHECK(bem::detail::jit_best_shannon(static_cast<std::uint8_t>(tt)).cost <= 6);
  CHECK(bem::detail::jit_best_shannon(bem::ternary_tt::mux).cost == 3);
  CHECK(bem::detail::jit_best_shannon(bem::ternary_tt::majority).cost == 4);
  CHECK(bem::detail::jit_best_shannon(bem::ternary_tt::xor3).cost == 2);
}

TEST_CASE("jit: each back end's program computes the gate list") {
  std::uint64_t seed = 1;
  for (const auto& list : test_lists()) {
    const auto in = random_words(list.inputs(), seed++);
    const auto want = eval_reference(list, in);
    for (auto backend : {jit_backend::avx512, jit_backend::avx2}) {
      const std::string backend_name = bem::jit_backend_name(backend);
      CAPTURE(backend_name);
      const auto p = bem::detail::jit_program_of(list, backend);
      CHECK(run_program(p, in) == want);
      for (const auto& op : p.ops) CHECK(op.k <= 3);
    }
  }
  // Fusion: on the 2.3 circuit of G = 256 the AVX-512 program has fewer
  // operations than gates (every gate read once folds into its reader).
  const auto list256 = bem::random_gate_list({32, 8, 256, 64}, 0x23030000u + 256);
  CHECK(bem::detail::jit_program_of(list256, jit_backend::avx512).ops.size() < 220);
}

TEST_CASE("jit: the register allocation computes the gate list (simulated, spills forced)") {
  using bem::detail::jit_target;
  const jit_target targets[] = {
      {true, 32, true, 15},   // AVX-512
      {true, 32, false, 15},  // AVX-512, 64-bit words (no memory operands)
      {false, 16, true, 15},  // AVX2
      {false, 16, false, 15},
      {true, 4, true, 15},  // 4 registers: an operation's three and its result
      {true, 4, false, 15},
      {false, 5, true, 4},  // 4 registers and the ones register
      {false, 5, false, 4},
  };
  std::uint64_t seed = 100;
  for (const auto& list : test_lists()) {
    const auto in = random_words(list.inputs(), seed++);
    const auto want = eval_reference(list, in);
    for (const auto& t : targets) {
      CAPTURE(t.registers);
      CAPTURE(t.memory_operands);
      CAPTURE(t.ternlog);
      const auto p = bem::detail::jit_program_of(list, t.ternlog ? jit_backend::avx512 : jit_backend::avx2);
      const std::size_t scratch = p.n + p.ops.size();
      for (const auto& order : {bem::detail::jit_list_order(p), bem::detail::jit_depth_first(p, false),
                                bem::detail::jit_depth_first(p, true)}) {
        const auto a = bem::detail::jit_allocator(p, order, t).take();
        CHECK(simulate(a, t, in, list.outputs(), scratch) == want);
      }
      CHECK(simulate(bem::detail::jit_allocate(p, t), t, in, list.outputs(), scratch) == want);
    }
  }
  // The chosen order keeps the 2.3 circuit of G = 256 mostly in registers:
  // fewer memory operations than the program's operations.
  const auto list256 = bem::random_gate_list({32, 8, 256, 64}, 0x23030000u + 256);
  const auto p = bem::detail::jit_program_of(list256, jit_backend::avx512);
  CHECK(bem::detail::jit_allocate(p, targets[0]).memory_operations < p.ops.size());
}

TEST_CASE("jit: generated code agrees with the reference on every word type and back end") {
  INFO("best back end here: " << std::string(bem::jit_backend_name(bem::best_jit_backend())));
  std::uint64_t seed = 500;
  for (const auto& list : test_lists())
    for (auto backend : runnable_backends()) {
      const std::string backend_name = bem::jit_backend_name(backend);
      CAPTURE(backend_name);
      CAPTURE(list.gate_count());
      check_word_type<std::uint64_t>(list, backend, seed++);
      check_word_type<bem::lane_word<64>>(list, backend, seed++);
      check_word_type<bem::lane_word<128>>(list, backend, seed++);
      check_word_type<bem::lane_word<192>>(list, backend, seed++);  // three 64-bit chunks
      check_word_type<bem::lane_word<256>>(list, backend, seed++);
      check_word_type<bem::lane_word<512>>(list, backend, seed++);
      check_word_type<bem::lane_word<1024>>(list, backend, seed++);  // a loop over chunks
    }
}

TEST_CASE("jit: exhaustive agreement with the scalar semantics") {
  // 6 inputs on 64 lanes and 10 inputs on 1024 lanes: every assignment once.
  const bem::gate_list six = edge_list(6, 80, 6, 31), ten = edge_list(10, 150, 7, 32);
  for (auto backend : runnable_backends()) {
    const std::string backend_name = bem::jit_backend_name(backend);
      CAPTURE(backend_name);
    const auto check = [&]<class W>(const bem::gate_list& list) {
      const bem::jit_circuit c(list, {backend});
      const auto in = exhaustive_inputs<W>(list.inputs());
      const auto out = eval(c, in);
      for (std::size_t l = 0; l < lanes_of<W>(); ++l) {
        const auto want = scalar_eval(list, lane_inputs(in, l));
        for (std::size_t k = 0; k < list.outputs(); ++k) REQUIRE(lane_of(out[k], l) == want[k]);
      }
    };
    check.template operator()<std::uint64_t>(six);
    check.template operator()<bem::lane_word<1024>>(ten);
  }
}

TEST_CASE("jit: back end, fallback, sharing and threads") {
  const auto list = bem::random_gate_list({32, 8, 128, 64}, 77);
  using word = bem::lane_word<256>;
  const auto in = random_inputs<word>(32, 8);
  const auto want = eval_reference(list, in);

  SUBCASE("the interpreter where asked, with no code") {
    const bem::jit_circuit c(list, {jit_backend::interpreter});
    CHECK(c.backend() == jit_backend::interpreter);
    CHECK_FALSE(c.prepare<word>());
    CHECK(c.code_bytes<word>() == 0);
    CHECK(eval(c, in) == want);
  }
  SUBCASE("the best back end by default, code for each word size") {
    const bem::jit_circuit c(list);
    CHECK(c.backend() == bem::best_jit_backend());
    const bool generated = c.backend() != jit_backend::interpreter;
    CHECK(c.prepare<word>() == generated);
    CHECK((c.code_bytes<word>() > 0) == generated);
    CHECK((c.code_bytes<std::uint64_t>() > 0) == generated);
    CHECK(eval(c, in) == want);
    // Copies share the list, the program and the code already generated.
    const bem::jit_circuit copy = c;
    CHECK(&copy.source() == &c.source());
    CHECK(eval(copy, in) == want);
  }
  SUBCASE("the code's vector width: the widest register that divides the word") {
    const bem::jit_circuit c(list), interpreted(list, {jit_backend::interpreter});
    const std::size_t widest = c.backend() == jit_backend::avx512 ? 512 : c.backend() == jit_backend::avx2 ? 256 : 0;
    CHECK(c.vector_bits<bem::lane_word<256>>() == std::min<std::size_t>(widest, 256));
    CHECK(c.vector_bits<bem::lane_word<1024>>() == widest);
    CHECK(c.vector_bits<bem::lane_word<192>>() == (widest ? 64 : 0));  // 24 bytes: 8-byte moves
    CHECK(c.vector_bits<std::uint64_t>() == (widest ? 64 : 0));
    CHECK(interpreted.vector_bits<bem::lane_word<256>>() == 0);
  }
  SUBCASE("a word type that is not 64-bit words runs the interpreter") {
    static_assert(bem::circuit_representation<bem::jit_circuit, word32>);
    const bem::jit_circuit c(list);
    CHECK_FALSE(c.prepare<word32>());
    std::vector<word32> in32;
    for (auto x : random_words(32, 10)) in32.push_back({static_cast<std::uint32_t>(x)});
    CHECK(eval(c, in32) == eval_reference(list, in32));
  }
  SUBCASE("out may not overlap in or scratch, whichever back end runs") {
    for (const auto backend : {bem::best_jit_backend(), jit_backend::interpreter}) {
      const bem::jit_circuit c(list, {backend});
      std::vector<word> scratch(c.scratch_size() + 8);
      CHECK_THROWS_AS(c.evaluate(std::span<const word>(in), std::span<word>(scratch).first(8),
                                 std::span<word>(scratch)),
                      std::invalid_argument);
      std::vector<word> both(40);
      std::copy(in.begin(), in.end(), both.begin());
      std::vector<word> scratch2(c.scratch_size());
      CHECK_THROWS_AS(c.evaluate(std::span<const word>(both).first(32), std::span<word>(both).subspan(30, 8),
                                 std::span<word>(scratch2)),
                      std::invalid_argument);
      // And for a word type that always runs the interpreter.
      std::vector<word32> in32(32), scratch32(c.scratch_size() + 8);
      CHECK_THROWS_AS(c.evaluate(std::span<const word32>(in32), std::span<word32>(scratch32).first(8),
                                 std::span<word32>(scratch32)),
                      std::invalid_argument);
    }
  }
  SUBCASE("first evaluations from several threads at once") {
    const bem::jit_circuit c(list);
    std::vector<std::vector<word>> got(4);
    std::vector<std::vector<std::uint64_t>> got64(4);
    const auto in64 = random_words(32, 9);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < 4; ++i)
      threads.emplace_back([&, i] {
        got[i] = eval(c, in);
        got64[i] = eval(c, in64);
      });
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < 4; ++i) {
      CHECK(got[i] == want);
      CHECK(got64[i] == eval_reference(list, in64));
    }
  }
}

TEST_CASE("jit: generated code lives in pages that are never writable and executable at once") {
  if constexpr (!bem::detail::jit_x86_target) return;
  const bem::detail::executable_code code(std::vector<std::uint8_t>{0xc3});  // ret
  const auto addr = reinterpret_cast<std::uintptr_t>(code.address());
  std::ifstream maps("/proc/self/maps");
  if (!maps) return;  // not Linux: nothing to read the permissions from
  std::string line, perms;
  while (std::getline(maps, line)) {
    std::istringstream s(line);
    std::string range;
    s >> range >> perms;
    const auto dash = range.find('-');
    const auto lo = std::stoull(range.substr(0, dash), nullptr, 16), hi = std::stoull(range.substr(dash + 1), nullptr, 16);
    if (lo <= addr && addr < hi) break;
    perms.clear();
  }
  CHECK(perms.substr(0, 3) == "r-x");
  reinterpret_cast<void (*)()>(const_cast<void*>(code.address()))();  // and it runs
}

TEST_CASE("jit: where the system refuses executable memory, the interpreter runs") {
#if defined(__linux__)
  // Linux's memory-deny-write-execute (PR_SET_MDWE, kernel 6.3; systemd's
  // MemoryDenyWriteExecute= enforces the same) refuses to make a writable
  // mapping executable: exactly what the generator asks. In a child, so
  // that this process keeps its JIT.
  if (bem::best_jit_backend() == jit_backend::interpreter) return;
  const auto list = bem::random_gate_list({32, 8, 64, 64}, 5);
  using word = bem::lane_word<256>;
  const auto in = random_inputs<word>(32, 6);
  const auto want = eval_reference(list, in);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    constexpr int pr_set_mdwe = 65, refuse_exec_gain = 1;
    if (prctl(pr_set_mdwe, refuse_exec_gain, 0L, 0L, 0L) != 0) _exit(77);  // an older kernel
    const bem::jit_circuit c(list);
    const bool generated = c.prepare<word>();
    const bool right = eval(c, in) == want;
    _exit(!generated && right && c.code_bytes<word>() == 0 ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) {
    MESSAGE("PR_SET_MDWE not supported by this kernel: fallback not exercised");
    return;
  }
  CHECK(WEXITSTATUS(status) == 0);
#endif
}
