// The x86-64 layer of bem::jit_circuit (bem/circuits/jit.hpp): an encoder
// for the few instructions the generated code consists of, and executable
// memory that is never writable and executable at once. Which back end this
// CPU runs (bem::best_jit_backend) is in bem/platform/cpu_features.hpp.
//
// Instructions (Intel SDM vol. 2 encodings):
//   VEX (AVX2, registers 0..15):   vmovdqu load/store, vmovq load/store,
//     vmovdqa register copy, vpand, vpandn, vpor, vpxor, vpcmpeqd;
//   EVEX (AVX-512F + VL, registers 0..31, 64-bit elements): vmovdqu64
//     load/store, vmovq load/store, vmovdqa64 register copy, vpandq,
//     vpandnq, vporq, vpxorq, vpternlogq;
//   and endbr64, mov ecx imm32, add r64 imm8, dec ecx, jnz, vzeroupper, ret.
// Memory operands are [base + disp] with base rdi, rsi or rdx (no SIB, no
// rbp/r13, so disp 0 needs no displacement byte); EVEX displacements use
// the compressed disp8 * N form where they fit.
#pragma once

#include <bem/platform/cpu_features.hpp>
#include <bem/version.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#endif

BEM_NAMESPACE_BEGIN

namespace detail {

/// General-purpose registers the generated code addresses memory through
/// (the System V argument registers of fn(in, out, scratch)).
enum class x86_gpr : std::uint8_t { rdx = 2, rsi = 6, rdi = 7 };

/// A memory operand [base + disp].
struct x86_mem {
  x86_gpr base;
  std::int32_t disp;
};

/// A register or memory operand (the ModRM r/m field).
struct x86_rm {
  bool is_mem = false;
  std::uint8_t reg = 0;
  x86_mem mem{x86_gpr::rdi, 0};
  static x86_rm r(std::uint8_t reg) { return {false, reg, {x86_gpr::rdi, 0}}; }
  static x86_rm m(x86_mem mem) { return {true, 0, mem}; }
};

/// Opcode maps and mandatory prefixes of VEX/EVEX.
enum class x86_map : std::uint8_t { m0f = 1, m0f38 = 2, m0f3a = 3 };
enum class x86_pp : std::uint8_t { none = 0, p66 = 1, pf3 = 2, pf2 = 3 };

/// Machine code being written (an append-only byte buffer).
class x86_assembler {
 public:
  const std::vector<std::uint8_t>& bytes() const noexcept { return code_; }
  std::size_t size() const noexcept { return code_.size(); }

  void endbr64() { put({0xF3, 0x0F, 0x1E, 0xFA}); }
  void ret() { code_.push_back(0xC3); }
  void vzeroupper() { put({0xC5, 0xF8, 0x77}); }
  void mov_ecx(std::uint32_t imm) {
    code_.push_back(0xB9);
    put32(imm);
  }
  /// add r64, imm8 (REX.W 83 /0 ib).
  void add_imm8(x86_gpr r, std::int8_t imm) {
    put({0x48, 0x83, static_cast<std::uint8_t>(0xC0 | static_cast<std::uint8_t>(r)),
         static_cast<std::uint8_t>(imm)});
  }
  void dec_ecx() { put({0xFF, 0xC9}); }
  /// jnz to `target` (a byte offset already written).
  void jnz_back(std::size_t target) {
    const std::int64_t rel8 = static_cast<std::int64_t>(target) - static_cast<std::int64_t>(code_.size() + 2);
    if (rel8 >= -128) {
      put({0x75, static_cast<std::uint8_t>(static_cast<std::int8_t>(rel8))});
    } else {
      const std::int64_t rel32 = static_cast<std::int64_t>(target) - static_cast<std::int64_t>(code_.size() + 6);
      put({0x0F, 0x85});
      put32(static_cast<std::uint32_t>(static_cast<std::int32_t>(rel32)));
    }
  }

  /// A VEX instruction: reg (ModRM.reg), vvvv (0 when unused), rm; L: 0
  /// for 128 bits, 1 for 256. Registers 0..15.
  void vex(x86_map map, x86_pp pp, std::uint8_t opcode, unsigned l, std::uint8_t reg, std::uint8_t vvvv,
           const x86_rm& rm) {
    const unsigned r = (reg >> 3) & 1u, b = rm.is_mem ? 0u : (rm.reg >> 3) & 1u;
    const std::uint8_t vbits = static_cast<std::uint8_t>((~vvvv & 0xFu) << 3);
    if (b == 0 && map == x86_map::m0f) {  // two-byte form
      put({0xC5, static_cast<std::uint8_t>(((r ^ 1u) << 7) | vbits | (l << 2) | static_cast<unsigned>(pp))});
    } else {
      put({0xC4, static_cast<std::uint8_t>(((r ^ 1u) << 7) | (1u << 6) | ((b ^ 1u) << 5) | static_cast<unsigned>(map)),
           static_cast<std::uint8_t>(vbits | (l << 2) | static_cast<unsigned>(pp))});
    }
    code_.push_back(opcode);
    modrm(reg, rm, 1);
  }

  /// An EVEX instruction with W = 1 and no masking: reg, vvvv (0 when
  /// unused), rm; L: 0/1/2 for 128/256/512 bits; registers 0..31; `n` the
  /// disp8 scale (the memory operand's size in bytes).
  void evex(x86_map map, x86_pp pp, std::uint8_t opcode, unsigned l, std::uint8_t reg, std::uint8_t vvvv,
            const x86_rm& rm, unsigned n) {
    const unsigned r = (reg >> 3) & 1u, r2 = (reg >> 4) & 1u;
    const unsigned b = rm.is_mem ? 0u : (rm.reg >> 3) & 1u, x = rm.is_mem ? 0u : (rm.reg >> 4) & 1u;
    const unsigned v2 = (vvvv >> 4) & 1u;
    code_.push_back(0x62);
    code_.push_back(static_cast<std::uint8_t>(((r ^ 1u) << 7) | ((x ^ 1u) << 6) | ((b ^ 1u) << 5) | ((r2 ^ 1u) << 4) |
                                              static_cast<unsigned>(map)));
    code_.push_back(static_cast<std::uint8_t>((1u << 7) | ((~vvvv & 0xFu) << 3) | (1u << 2) | static_cast<unsigned>(pp)));
    code_.push_back(static_cast<std::uint8_t>((l << 5) | ((v2 ^ 1u) << 3)));
    code_.push_back(opcode);
    modrm(reg, rm, n);
  }
  void imm8(std::uint8_t v) { code_.push_back(v); }

 private:
  void put(std::initializer_list<std::uint8_t> b) { code_.insert(code_.end(), b); }
  void put32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) code_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  /// ModRM (+ displacement): register direct, or [base + disp] with disp8
  /// scaled by `n` (1 for VEX) where it fits, else disp32.
  void modrm(std::uint8_t reg, const x86_rm& rm, unsigned n) {
    const std::uint8_t rbits = static_cast<std::uint8_t>((reg & 7u) << 3);
    if (!rm.is_mem) {
      code_.push_back(static_cast<std::uint8_t>(0xC0 | rbits | (rm.reg & 7u)));
      return;
    }
    const std::uint8_t base = static_cast<std::uint8_t>(rm.mem.base);
    const std::int32_t disp = rm.mem.disp;
    if (disp == 0) {
      code_.push_back(static_cast<std::uint8_t>(rbits | base));
    } else if (disp % static_cast<std::int32_t>(n) == 0 && disp / static_cast<std::int32_t>(n) >= -128 &&
               disp / static_cast<std::int32_t>(n) <= 127) {
      code_.push_back(static_cast<std::uint8_t>(0x40 | rbits | base));
      code_.push_back(static_cast<std::uint8_t>(static_cast<std::int8_t>(disp / static_cast<std::int32_t>(n))));
    } else {
      code_.push_back(static_cast<std::uint8_t>(0x80 | rbits | base));
      put32(static_cast<std::uint32_t>(disp));
    }
  }

  std::vector<std::uint8_t> code_;
};

/// Machine code in pages of its own: written while read-write, then made
/// read-execute before it is ever called (never writable and executable
/// at once). Move-only; unmaps on destruction.
class executable_code {
 public:
  executable_code() = default;
  /// Copies `code` into fresh pages and makes them read-execute. Throws
  /// std::runtime_error naming the system call that failed (a kernel or
  /// policy may forbid executable anonymous memory).
  explicit executable_code(const std::vector<std::uint8_t>& code) {
#if defined(MAP_ANONYMOUS)
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    size_ = (code.size() + page - 1) / page * page;
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("jit_circuit: mmap of " + std::to_string(size_) + " bytes failed");
    std::memcpy(p, code.data(), code.size());
    if (mprotect(p, size_, PROT_READ | PROT_EXEC) != 0) {
      munmap(p, size_);
      throw std::runtime_error("jit_circuit: mprotect(PROT_READ | PROT_EXEC) failed (executable memory forbidden?)");
    }
    addr_ = p;
    bytes_ = code.size();
#else
    (void)code;
    throw std::runtime_error("jit_circuit: no executable memory on this platform");
#endif
  }
  executable_code(const executable_code&) = delete;
  executable_code& operator=(const executable_code&) = delete;
  executable_code(executable_code&& o) noexcept : addr_(o.addr_), size_(o.size_), bytes_(o.bytes_) {
    o.addr_ = nullptr;
    o.size_ = o.bytes_ = 0;
  }
  executable_code& operator=(executable_code&& o) noexcept {
    if (this != &o) {
      release();
      addr_ = o.addr_;
      size_ = o.size_;
      bytes_ = o.bytes_;
      o.addr_ = nullptr;
      o.size_ = o.bytes_ = 0;
    }
    return *this;
  }
  ~executable_code() { release(); }

  const void* address() const noexcept { return addr_; }
  /// Bytes of code (the mapping is whole pages).
  std::size_t code_bytes() const noexcept { return bytes_; }

 private:
  void release() noexcept {
#if defined(MAP_ANONYMOUS)
    if (addr_) munmap(addr_, size_);
#endif
    addr_ = nullptr;
  }
  void* addr_ = nullptr;
  std::size_t size_ = 0, bytes_ = 0;
};

}  // namespace detail

BEM_NAMESPACE_END
