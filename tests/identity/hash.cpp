#include <bem/machine/hash.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

constexpr std::string_view msg448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
constexpr std::string_view msg896 =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

// Digests fixed at compile time: the implementation is constexpr.
static_assert(bem::sha256("abc") ==
              bem::digest_from_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
static_assert(bem::sha256(msg448) ==
              bem::digest_from_hex("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
}  // namespace

TEST_CASE("SHA-256: FIPS 180-4 / NIST example vectors") {
  CHECK(bem::to_hex(bem::sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(bem::to_hex(bem::sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(bem::to_hex(bem::sha256(msg448)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(bem::to_hex(bem::sha256(msg896)) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  const std::string million(1000000, 'a');
  CHECK(bem::to_hex(bem::sha256(million)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // SHAVS byte-oriented short messages.
  const std::uint8_t one[] = {0xbd};
  CHECK(bem::to_hex(bem::sha256(std::span<const std::uint8_t>(one))) ==
        "68325720aabd7c82f30f554b313d0570c95accbb7dc4b5aae11204c08ffe732b");
  const std::byte four[] = {std::byte{0xc9}, std::byte{0x8c}, std::byte{0x8e}, std::byte{0x55}};
  CHECK(bem::to_hex(bem::sha256(std::span<const std::byte>(four))) ==
        "7abc22c0ae5af26ce93dbb94433a0e0b2e119d014f8e7f65bd56c61ccccd9504");
}

TEST_CASE("SHA-256: the SHA-extension compression agrees with the portable one") {
#if BEM_DETAIL_SHA_NI
  if (!bem::detail::sha256_ni_available()) {
    MESSAGE("this CPU has no SHA extensions: sha256() runs the portable code, tested above");
    return;
  }
  bem::xoshiro256ss rng(0x5a5a);
  for (int trial = 0; trial < 2000; ++trial) {
    std::array<std::uint32_t, 8> a{}, b{};
    for (auto& w : a) w = static_cast<std::uint32_t>(rng.next());
    b = a;
    std::uint8_t block[64];
    for (auto& x : block) x = static_cast<std::uint8_t>(rng.next());
    if (trial == 0) std::fill(std::begin(block), std::end(block), std::uint8_t{0});
    if (trial == 1) std::fill(std::begin(block), std::end(block), std::uint8_t{0xFF});
    bem::detail::sha256_compress_portable(a, block);
    bem::detail::sha256_compress_ni(b, block);
    REQUIRE(a == b);
  }
  // A digest computed at run time (the extensions) equals the same digest
  // computed at compile time (portable code).
  constexpr auto at_compile_time = bem::sha256(msg896);
  CHECK(bem::sha256(std::string(msg896)) == at_compile_time);
#else
  MESSAGE("not x86-64 GCC/Clang: no SHA-extension path");
#endif
}

TEST_CASE("SHA-256: one million 'a' fed in uneven pieces") {
  bem::sha256_hasher h;
  const std::string chunk(997, 'a');
  std::size_t fed = 0;
  while (fed < 1000000) {
    const std::size_t n = std::min<std::size_t>(chunk.size() - (fed % 7), 1000000 - fed);
    h.update(std::string_view(chunk).substr(0, n));
    fed += n;
  }
  CHECK(h.size() == 1000000);
  CHECK(bem::to_hex(h.final()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("SHA-256: update at every split point equals one shot; byte types agree") {
  for (std::string_view m : {msg448, msg896}) {
    const auto whole = bem::sha256(m);
    for (std::size_t i = 0; i <= m.size(); ++i) {
      bem::sha256_hasher h;
      h.update(m.substr(0, i));
      h.update(m.substr(i));
      CHECK(h.final() == whole);
      // Three pieces: split again in the tail.
      const std::size_t j = i + (m.size() - i) / 2;
      bem::sha256_hasher h3;
      h3.update(m.substr(0, i)).update(m.substr(i, j - i)).update(m.substr(j));
      CHECK(h3.final() == whole);
    }
    std::vector<std::byte> as_bytes;
    std::vector<std::uint8_t> as_u8;
    for (char c : m) {
      as_bytes.push_back(static_cast<std::byte>(c));
      as_u8.push_back(static_cast<std::uint8_t>(c));
    }
    CHECK(bem::sha256(std::span<const std::byte>(as_bytes)) == whole);
    CHECK(bem::sha256(std::span<const std::uint8_t>(as_u8)) == whole);
  }
}

TEST_CASE("SHA-256: final() does not consume the state") {
  bem::sha256_hasher h;
  h.update("ab");
  const auto mid = h.final();
  CHECK(mid == bem::sha256("ab"));
  CHECK(h.final() == mid);
  h.update("c");
  CHECK(h.final() == bem::sha256("abc"));
}

TEST_CASE("SHA-256: padding boundaries (lengths 0..200) differ pairwise and match byte-at-a-time feeding") {
  // 55, 56, 63, 64 and 119, 120 are where padding adds a second block.
  std::string m;
  std::vector<bem::sha256_digest> seen;
  for (int n = 0; n <= 200; ++n) {
    bem::sha256_hasher h;
    for (char c : m) h.update(std::string_view(&c, 1));
    const auto d = bem::sha256(m);
    CHECK(h.final() == d);
    for (const auto& s : seen) CHECK(s != d);
    seen.push_back(d);
    m.push_back(static_cast<char>('a' + n % 26));
  }
  // Two independent references at the two-block boundary (Python hashlib).
  CHECK(bem::to_hex(bem::sha256(std::string(55, 'a'))) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  CHECK(bem::to_hex(bem::sha256(std::string(56, 'a'))) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  CHECK(bem::to_hex(bem::sha256(std::string(64, 'a'))) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST_CASE("hex formatting and parsing") {
  const auto d = bem::sha256("abc");
  CHECK(bem::digest_from_hex(bem::to_hex(d)) == d);
  CHECK(bem::digest_from_hex("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD") == d);
  CHECK_THROWS_AS(bem::digest_from_hex("abc"), std::invalid_argument);
  CHECK_THROWS_AS(bem::digest_from_hex(std::string(63, '0') + "g"), std::invalid_argument);
  const std::uint8_t b[] = {0x00, 0x0f, 0xa0, 0xff};
  CHECK(bem::to_hex(b) == "000fa0ff");
}

// ---- Merkle ---------------------------------------------------------------------------

namespace {
std::vector<bem::sha256_digest> leaves(int n) {
  std::vector<bem::sha256_digest> v;
  for (int i = 0; i < n; ++i) v.push_back(bem::sha256(std::to_string(i)));
  return v;
}

bem::sha256_digest root(const std::vector<bem::sha256_digest>& v) {
  return bem::merkle_root(std::span<const bem::sha256_digest>(v));
}

// RFC 6962 section 2.1 as written (recursive split at the largest power of two below n).
bem::sha256_digest rfc6962(std::span<const bem::sha256_digest> d) {
  if (d.empty()) return bem::sha256("");
  if (d.size() == 1) {
    std::vector<std::uint8_t> m{0x00};
    m.insert(m.end(), d[0].begin(), d[0].end());
    return bem::sha256(std::span<const std::uint8_t>(m));
  }
  std::size_t k = 1;
  while (2 * k < d.size()) k *= 2;
  const auto l = rfc6962(d.first(k)), r = rfc6962(d.subspan(k));
  std::vector<std::uint8_t> m{0x01};
  m.insert(m.end(), l.begin(), l.end());
  m.insert(m.end(), r.begin(), r.end());
  return bem::sha256(std::span<const std::uint8_t>(m));
}
}  // namespace

TEST_CASE("Merkle: small trees by hand") {
  const auto v = leaves(3);
  using bem::merkle_leaf_hash, bem::merkle_node_hash;
  // Prefix bytes: leaf 0x00, node 0x01.
  std::vector<std::uint8_t> leaf0{0x00};
  leaf0.insert(leaf0.end(), v[0].begin(), v[0].end());
  CHECK(merkle_leaf_hash(v[0]) == bem::sha256(std::span<const std::uint8_t>(leaf0)));
  CHECK(merkle_node_hash(v[0], v[1]) == bem::sha256_hasher{}.update("\x01").update(v[0]).update(v[1]).final());

  CHECK(root({}) == bem::sha256(""));
  CHECK(root({v[0]}) == merkle_leaf_hash(v[0]));
  CHECK(root({v[0], v[1]}) == merkle_node_hash(merkle_leaf_hash(v[0]), merkle_leaf_hash(v[1])));
  // Odd count: the third leaf is promoted, not duplicated.
  CHECK(root(v) == merkle_node_hash(merkle_node_hash(merkle_leaf_hash(v[0]), merkle_leaf_hash(v[1])),
                                    merkle_leaf_hash(v[2])));
  CHECK(root(v) != root({v[0], v[1], v[2], v[2]}));
  // A leaf is never mistaken for an inner node: the two-leaf root is not the
  // leaf hash of anything built from the children.
  CHECK(root({v[0], v[1]}) != merkle_leaf_hash(merkle_node_hash(v[0], v[1])));
}

TEST_CASE("Merkle: roots agree with independent values (Python hashlib) and the recursive RFC 6962 definition") {
  // Leaves are sha256 of "0", "1", ...; roots computed outside this code base.
  const char* expected[] = {
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "13a77175e35eb1d9da91ee14df0d7772cea71289800206e2b45c882ecb06efbf",
      "bbb441530bdded54e6e2bfcdc829819ff39b30768eb9f023071dffc16b410f10",
      "8be871f13785b4c81a1700459c76ac2b3ae2caebb7876c376e223c6adff98c47",
      "626635eec4e2fa4a75475a0f1d633dbee55b6783247c108b9a12dcc60f13836e",
      "4e23fb40d8876f1299cca9b3c28432a01b11d1a20126606914612892ff2e09a7",
      "49a8d9139a2333a5c1b7cd5a8db90bc3f7f308dd7fbdbf9e4ffaed988f1764fb",
      "5653c4ab2514ccd6ea4f0159702d2aba901f2562aa75abcff5a19e344bee038f",
  };
  for (int n = 0; n < 8; ++n) CHECK(bem::to_hex(root(leaves(n))) == expected[n]);
  for (int n = 0; n <= 40; ++n) {
    const auto v = leaves(n);
    CHECK(root(v) == rfc6962(v));
  }
}

TEST_CASE("Merkle: changing any bit of any leaf, reordering or dropping leaves changes the root") {
  for (int n = 1; n <= 17; ++n) {
    const auto v = leaves(n);
    const auto r = root(v);
    for (int i = 0; i < n; ++i)
      for (int byte = 0; byte < 32; ++byte)
        for (int bit = 0; bit < 8; bit += 7) {
          auto w = v;
          w[static_cast<std::size_t>(i)][static_cast<std::size_t>(byte)] ^= static_cast<std::uint8_t>(1u << bit);
          CHECK(root(w) != r);
        }
    for (int i = 0; i + 1 < n; ++i) {
      auto w = v;
      std::swap(w[static_cast<std::size_t>(i)], w[static_cast<std::size_t>(i) + 1]);
      CHECK(root(w) != r);
    }
    auto shorter = v;
    shorter.pop_back();
    CHECK(root(shorter) != r);
  }
}

TEST_CASE("Merkle: the accumulator, fed one leaf at a time, has the RFC 6962 root after every leaf") {
  // Up to 300 leaves: past 256 (nine levels of carries) and every count in
  // between, each against the recursive definition; clear() starts anew.
  const auto v = leaves(300);
  bem::merkle_accumulator acc;
  CHECK(acc.size() == 0);
  CHECK(acc.root() == bem::sha256(""));
  for (std::size_t n = 1; n <= v.size(); ++n) {
    acc.add(v[n - 1]);
    CHECK(acc.size() == n);
    CHECK(acc.root() == rfc6962(std::span<const bem::sha256_digest>(v).first(n)));
  }
  acc.clear();
  CHECK(acc.root() == bem::sha256(""));
  acc.add(v[7]);
  CHECK(acc.root() == bem::merkle_leaf_hash(v[7]));
}
