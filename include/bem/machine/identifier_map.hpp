// A flat map from expert identifiers to slots: open addressing with linear
// probing over one array of (identifier, slot) pairs, so a fast-path lookup
// reads one or two cache lines (std::unordered_map chases a node pointer per
// lookup: about two misses at 10^4 experts). Erasure uses backward-shift
// deletion, so no tombstones accumulate and lookups stay bounded by the
// load factor (at most 1/2: the table doubles first).
#pragma once

#include <bem/machine/identifier.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

BEM_NAMESPACE_BEGIN

class identifier_map {
 public:
  std::size_t size() const noexcept { return size_; }

  std::optional<std::uint32_t> find(identifier id) const noexcept {
    if (table_.empty()) return std::nullopt;
    for (std::size_t i = home(id);; i = (i + 1) & mask()) {
      const entry& e = table_[i];
      if (e.slot == empty_slot) return std::nullopt;
      if (e.id == id) return e.slot;
    }
  }
  bool contains(identifier id) const noexcept { return find(id).has_value(); }

  /// Inserts id -> slot; false (nothing changes) when id is present.
  bool insert(identifier id, std::uint32_t slot) {
    if (contains(id)) return false;
    if (2 * (size_ + 1) > table_.size()) grow();
    place(id, slot);
    ++size_;
    return true;
  }

  /// Erases id; false when absent.
  bool erase(identifier id) noexcept {
    if (table_.empty()) return false;
    std::size_t i = home(id);
    for (;; i = (i + 1) & mask()) {
      if (table_[i].slot == empty_slot) return false;
      if (table_[i].id == id) break;
    }
    // Backward shift: move later entries of the run into the hole when
    // their home does not lie strictly between the hole and them.
    for (std::size_t j = (i + 1) & mask();; j = (j + 1) & mask()) {
      if (table_[j].slot == empty_slot) break;
      const std::size_t h = home(table_[j].id);
      const bool between = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (between) continue;
      table_[i] = table_[j];
      i = j;
    }
    table_[i] = entry{};
    --size_;
    return true;
  }

  void clear() noexcept {
    table_.clear();
    size_ = 0;
  }

 private:
  static constexpr std::uint32_t empty_slot = ~std::uint32_t{0};
  struct entry {
    identifier id = 0;
    std::uint32_t slot = empty_slot;
  };
  std::size_t mask() const noexcept { return table_.size() - 1; }
  std::size_t home(identifier id) const noexcept { return static_cast<std::size_t>(mix64(id)) & mask(); }
  void place(identifier id, std::uint32_t slot) {
    std::size_t i = home(id);
    while (table_[i].slot != empty_slot) i = (i + 1) & mask();
    table_[i] = {id, slot};
  }
  void grow() {
    std::vector<entry> old = std::move(table_);
    table_.assign(old.empty() ? 16 : 2 * old.size(), entry{});
    for (const entry& e : old)
      if (e.slot != empty_slot) place(e.id, e.slot);
  }

  std::vector<entry> table_;
  std::size_t size_ = 0;
};

BEM_NAMESPACE_END
