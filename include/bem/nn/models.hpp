// bem::nn — the trained sequence models as bem::pluggable_model types:
// e88_model, mamba2_model, linear_rnn_model and mlp_model, with the temporal
// nonlinearity seed's configurations (section 3.1) as named presets. Each
// is a bem::diagnosing_model: after training the driver asks it for the seed's
// section 6 diagnostics (diagnostics.hpp).
//
// Parameters (every one recorded in each result's config):
//   preset          a named configuration; the individual keys below override it
//   variant         E88: authors | simple | linear | simple_linear;  Mamba2: standard | negative_eigenvalue
//   layers, dim, ...  the architecture (see each model)
//   lr (1e-3), lr_min (0), weight_decay (0.01), grad_clip (1.0), beta1 (0.9),
//   beta2 (0.999): AdamW (seed section 3.2);
//   total_steps (0)  cosine annealing period in optimizer steps; a suite sets
//                    it to epochs * ceil(train_sequences / batch_size); 0 keeps
//                    the learning rate constant
//   threads (2)      worker threads; results are identical for the same seed,
//                    thread count and build (compiler, flags and instruction
//                    set: FMA contraction and vector widths change last bits)
//   checkpoint_every (32)  recurrent-state checkpoint interval (memory vs
//                    recomputation; does not change results)
//
// Presets (seed section 3.1):
//   e88:        E88-1L  layers 1, heads 16, n_state 32, dim 128
//               E88-4L  layers 4, heads 4,  n_state 32, dim 64
//   mamba2:     Mamba2-4L, -8L, -16L, -32L  layers 4..32, d_model 64, d_state 16
//               (expand 2, headdim 64, d_conv 4: the reference defaults)
//   linear_rnn: Linear-RNN  layers 1, hidden 128
//   mlp:        MLP         layers 4, hidden 128
#pragma once

#include <bem/nn/baseline_layers.hpp>
#include <bem/nn/diagnostics.hpp>
#include <bem/nn/e88.hpp>
#include <bem/nn/mamba2.hpp>
#include <bem/nn/network.hpp>
#include <bem/nn/trainer.hpp>
#include <bem/harness/parameters.hpp>
#include <bem/harness/sequence_model.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace nn {

namespace detail {
struct common_hparams {
  adamw_config opt;
  int threads = 2;
  int chunk = 32;
};

inline common_hparams read_common(parameters& p) {
  common_hparams h;
  h.opt.lr = p.get_double_in("lr", 1e-3, 0.0, 10.0);
  h.opt.lr_min = p.get_double_in("lr_min", 0.0, 0.0, 10.0);
  h.opt.weight_decay = p.get_double_in("weight_decay", 0.01, 0.0, 10.0);
  h.opt.grad_clip = p.get_double_in("grad_clip", 1.0, 0.0, 1e9);
  h.opt.beta1 = p.get_double_in("beta1", 0.9, 0.0, 0.999999);
  h.opt.beta2 = p.get_double_in("beta2", 0.999, 0.0, 0.999999999);
  h.opt.total_steps = p.get_int_in("total_steps", 0, 0, std::int64_t{1} << 40);
  h.threads = static_cast<int>(p.get_int_in("threads", 2, 1, 256));
  h.chunk = static_cast<int>(p.get_int_in("checkpoint_every", 32, 1, 1 << 20));
  return h;
}

inline int get_int(parameters& p, const char* key, int preset_value, int lo, int hi) {
  return static_cast<int>(p.get_int_in(key, preset_value, lo, hi));
}
}  // namespace detail

/// The sequence_model adapter shared by all trained models. `Derived`
/// provides `layer_config()` (the layer's configuration), `dim()`, `layers()`.
template <template <class> class Layer, class Derived>
class trained_model {
 public:
  void reset(const tasks::task_spec& spec, std::uint64_t seed) {
    spec_ = spec;
    classes_ = spec.output == tasks::output_kind::class_final;
    typename network<float, Layer>::config nc;
    nc.vocab = spec.vocab_size;
    nc.dim = self().dim();
    nc.layers = self().layers();
    nc.out_width = spec.logits_per_position();
    nc.layer = self().layer_config();
    trainer_.emplace(nc, h_.opt, h_.threads, seed);
    max_T_ = 0;
    kept_.clear();
  }
  void set_learning(bool on) { learning_ = on; }
  double learn(const tasks::sequence_batch& b) {
    if (!learning_ || !trainer_) return std::nan("");
    max_T_ = std::max(max_T_, b.length);
    return trainer_->step(b, classes_);
  }
  void predict(const tasks::sequence_batch& b, tasks::prediction& out) {
    if (!trainer_) throw std::logic_error("nn model: predict before reset");
    trainer_->predict(b, out);
  }
  std::size_t parameter_count() const { return trainer_ ? trainer_->net().size() : 0; }

  /// Extra figures: recurrent state per sequence, peak training memory at the
  /// longest training sequence seen, optimizer steps, last learning rate and
  /// gradient norm.
  template <class F>
  void report(F&& emit) const {
    if (!trainer_) return;
    emit("state_bytes_per_sequence", static_cast<double>(trainer_->net().state_values() * sizeof(float)), "bytes");
    if (max_T_ > 0)
      emit("peak_training_bytes", static_cast<double>(trainer_->peak_training_bytes(max_T_)), "bytes");
    emit("optimizer_steps", static_cast<double>(trainer_->optimizer().steps()), "steps");
    emit("final_learning_rate", trainer_->optimizer().learning_rate(), "lr");
    emit("last_grad_norm", trainer_->last_grad_norm(), "norm");
  }

  /// Seed section 6 on a held-out batch (diagnostics.hpp): gradient flow to
  /// each position and the linear probe for the running count.
  template <class F>
  void diagnose(const tasks::sequence_batch& b, F&& emit) {
    if (!trainer_) throw std::logic_error("nn model: diagnose before reset");
    const std::vector<double> g = grad_norm_by_position(*trainer_, b, classes_);
    emit("grad_norm_by_position", std::span<const double>(g), "||dL_last/dx_t||");
    const std::vector<double> gf = grad_norm_by_position(*trainer_, b, classes_, gradient_of::full_loss);
    emit("grad_norm_full_loss_by_position", std::span<const double>(gf), "||dL/dx_t||, L the mean loss");
    if (b.batch_size < 2) return;
    const count_probe_result probe = count_probe_by_position(*trainer_, b);
    emit("probe_loss_by_position", std::span<const double>(probe.loss), "squared error (count)");
    emit("probe_r2_by_position", std::span<const double>(probe.r2), "R^2");
  }

  /// Remembers the weights, not the optimizer's moments: the driver
  /// restores a checkpoint only once training is over.
  void keep_checkpoint() {
    if (!trainer_) throw std::logic_error("nn model: keep_checkpoint before reset");
    kept_ = trainer_->params();
  }
  void restore_checkpoint() {
    if (!trainer_ || kept_.empty()) throw std::logic_error("nn model: restore_checkpoint without a kept checkpoint");
    trainer_->params() = kept_;
  }

  trainer<Layer>& engine() { return *trainer_; }
  const trainer<Layer>& engine() const { return *trainer_; }

 protected:
  detail::common_hparams h_;

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
  tasks::task_spec spec_;
  bool classes_ = false, learning_ = true;
  std::optional<trainer<Layer>> trainer_;
  std::int32_t max_T_ = 0;
  std::vector<float> kept_;  // keep_checkpoint's weights
};

/// E88: tanh matrix-state recurrence (e88.hpp), presets E88-1L and E88-4L.
class e88_model : public trained_model<e88_layer, e88_model> {
 public:
  static constexpr const char* name = "e88";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "E88 tanh matrix-state recurrence (presets E88-1L, E88-4L; variant authors | simple | linear | simple_linear), AdamW";

  e88_model() {
    parameters p;
    init(p);
  }
  explicit e88_model(parameters& p) { init(p); }

  e88_config layer_config() const { return lc_; }
  int dim() const { return lc_.dim; }
  int layers() const { return layers_; }

 private:
  void init(parameters& p) {
    const std::string preset = p.get_choice("preset", "E88-1L", {"E88-1L", "E88-4L"});
    const bool four = preset == "E88-4L";
    layers_ = detail::get_int(p, "layers", four ? 4 : 1, 1, 256);
    lc_.heads = detail::get_int(p, "heads", four ? 4 : 16, 1, 1024);
    lc_.n_state = detail::get_int(p, "n_state", 32, 1, 1024);
    // head_v defaults to n_state but is at most 256: name the key the user set.
    if (!p.contains("head_v") && lc_.n_state > 256)
      throw parameter_error("n_state", "above 256 needs head_v (at most 256, default n_state) set, got " +
                                           std::to_string(lc_.n_state));
    lc_.head_v = detail::get_int(p, "head_v", lc_.n_state, 1, 256);
    lc_.dim = detail::get_int(p, "dim", four ? 64 : 128, 1, 1 << 16);
    lc_.gate = p.get_bool("gate", true);
    const std::string v = p.get_choice("variant", "authors", {"authors", "simple", "linear", "simple_linear"});
    lc_.variant = v == "simple"          ? e88_variant::simple
                  : v == "linear"        ? e88_variant::linear
                  : v == "simple_linear" ? e88_variant::simple_linear
                                         : e88_variant::authors;
    h_ = detail::read_common(p);
    lc_.chunk = h_.chunk;
  }
  e88_config lc_{};
  int layers_ = 1;
};

/// Mamba2 (SSD) blocks (mamba2.hpp), presets Mamba2-4L/8L/16L/32L.
class mamba2_model : public trained_model<mamba2_layer, mamba2_model> {
 public:
  static constexpr const char* name = "mamba2";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "Mamba2 SSD blocks, sequential scan (presets Mamba2-4L/8L/16L/32L; variant standard | negative_eigenvalue), AdamW";

  mamba2_model() {
    parameters p;
    init(p);
  }
  explicit mamba2_model(parameters& p) { init(p); }

  mamba2_config layer_config() const { return lc_; }
  int dim() const { return lc_.dim; }
  int layers() const { return layers_; }

 private:
  void init(parameters& p) {
    const std::string preset = p.get_choice("preset", "Mamba2-4L", {"Mamba2-4L", "Mamba2-8L", "Mamba2-16L", "Mamba2-32L"});
    const int depth = preset == "Mamba2-8L" ? 8 : preset == "Mamba2-16L" ? 16 : preset == "Mamba2-32L" ? 32 : 4;
    layers_ = detail::get_int(p, "layers", depth, 1, 1024);
    lc_.dim = detail::get_int(p, "d_model", 64, 1, 1 << 16);
    lc_.d_state = detail::get_int(p, "d_state", 16, 1, 1024);
    lc_.expand = detail::get_int(p, "expand", 2, 1, 16);
    lc_.headdim = detail::get_int(p, "headdim", 64, 1, 4096);
    lc_.d_conv = detail::get_int(p, "d_conv", 4, 1, 64);
    const std::string v = p.get_choice("variant", "standard", {"standard", "negative_eigenvalue"});
    lc_.variant = v == "negative_eigenvalue" ? mamba2_variant::negative_eigenvalue : mamba2_variant::standard;
    h_ = detail::read_common(p);
    lc_.chunk = h_.chunk;
    if ((lc_.expand * lc_.dim) % lc_.headdim != 0)
      throw parameter_error("headdim", "expand * d_model must be a multiple of headdim");
  }
  mamba2_config lc_{};
  int layers_ = 4;
};

/// Linear RNN baseline h = A h + B x, y = C h (baseline_layers.hpp).
class linear_rnn_model : public trained_model<linear_rnn_layer, linear_rnn_model> {
 public:
  static constexpr const char* name = "linear_rnn";
  static constexpr const char* version = "1";
  static constexpr const char* description = "linear RNN h = A h + B x, y = C h (preset Linear-RNN: hidden 128), AdamW";

  linear_rnn_model() {
    parameters p;
    init(p);
  }
  explicit linear_rnn_model(parameters& p) { init(p); }

  linear_rnn_config layer_config() const { return lc_; }
  int dim() const { return lc_.dim; }
  int layers() const { return layers_; }

 private:
  void init(parameters& p) {
    p.get_choice("preset", "Linear-RNN", {"Linear-RNN"});
    layers_ = detail::get_int(p, "layers", 1, 1, 256);
    lc_.hidden = detail::get_int(p, "hidden", 128, 1, 1 << 16);
    lc_.dim = detail::get_int(p, "dim", lc_.hidden, 1, 1 << 16);
    h_ = detail::read_common(p);
  }
  linear_rnn_config lc_{};
  int layers_ = 1;
};

/// MLP baseline without recurrence (baseline_layers.hpp).
class mlp_model : public trained_model<mlp_layer, mlp_model> {
 public:
  static constexpr const char* name = "mlp";
  static constexpr const char* version = "1";
  static constexpr const char* description = "per-position MLP, no recurrence (preset MLP: 4 layers, hidden 128), AdamW";

  mlp_model() {
    parameters p;
    init(p);
  }
  explicit mlp_model(parameters& p) { init(p); }

  mlp_config layer_config() const { return lc_; }
  int dim() const { return lc_.dim; }
  int layers() const { return layers_; }

 private:
  void init(parameters& p) {
    p.get_choice("preset", "MLP", {"MLP"});
    layers_ = detail::get_int(p, "layers", 4, 1, 256);
    lc_.dim = detail::get_int(p, "hidden", 128, 1, 1 << 16);
    h_ = detail::read_common(p);
  }
  mlp_config lc_{};
  int layers_ = 4;
};

}  // namespace nn
BEM_NAMESPACE_END
