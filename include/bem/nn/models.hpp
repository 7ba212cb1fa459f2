// bem::nn — the trained sequence models as bem::pluggable_model types:
// e88_model, mamba2_model, linear_rnn_model and mlp_model, with the temporal
// nonlinearity seed's configurations (section 3.1) as named presets. Each
// is a bem::diagnosing_model: after training the driver asks it for the seed's
// section 6 diagnostics (diagnostics.hpp).
//
// Parameters: the structs below (e88_parameters, ..., training_parameters)
// declare each one with its default, range and documentation
// (`bem-bench list --parameters` prints them); every one is recorded in each
// result's config. Results are identical for the same seed, thread count and
// build (compiler, flags and instruction set: FMA contraction and vector
// widths change last bits); checkpoint_every trades memory for recomputation
// and does not change results; a suite sets total_steps to
// epochs * ceil(train_sequences / batch_size).
//
// Presets (seed section 3.1):
//   e88:        E88-1L  layers 1, heads 16, n_state 32, dim 128
//               E88-4L  layers 4, heads 4,  n_state 32, dim 64
//   mamba2:     Mamba2-4L, -8L, -16L, -32L  layers 4..32, d_model 64, d_state 16
//               (expand 2, headdim 64, d_conv 4: the reference defaults)
//   linear_rnn: Linear-RNN  layers 1, hidden 128
//   mlp:        MLP         layers 4, hidden 128
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/harness/reflected_parameters.hpp>
#include <bem/harness/sequence_model.hpp>
#include <bem/nn/baseline_layers.hpp>
#include <bem/nn/diagnostics.hpp>
#include <bem/nn/e88.hpp>
#include <bem/nn/mamba2.hpp>
#include <bem/nn/network.hpp>
#include <bem/nn/trainer.hpp>
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

/// AdamW and the trainer's settings, read by every trained model.
struct training_parameters {
  BOOST_HANA_DEFINE_STRUCT(training_parameters, (double, lr), (double, lr_min), (double, weight_decay),
                           (double, grad_clip), (double, beta1), (double, beta2), (std::int64_t, total_steps),
                           (int, threads), (int, checkpoint_every));
  static void describe(parameter_schema<training_parameters>& s) {
    s("lr", 1e-3).in(0, 10).doc("AdamW learning rate (seed 3.2)");
    s("lr_min", 0.0).in(0, 10).doc("the cosine schedule's floor");
    s("weight_decay", 0.01).in(0, 10).doc("AdamW decoupled weight decay");
    s("grad_clip", 1.0).in(0, 1e9).doc("global gradient-norm clip; 0 disables it");
    s("beta1", 0.9).in(0, 0.999999).doc("AdamW first-moment decay");
    s("beta2", 0.999).in(0, 0.999999999).doc("AdamW second-moment decay");
    s("total_steps", 0).in(0, std::int64_t{1} << 40).doc("cosine period in optimizer steps; 0: constant rate");
    s("threads", 2).in(1, 256).doc("worker threads (results depend on the count)");
    s("checkpoint_every", 32).in(1, 1 << 20).doc("recurrent-state checkpoint interval (memory only)");
  }
  adamw_config adamw() const {
    adamw_config c;
    c.lr = lr, c.lr_min = lr_min, c.weight_decay = weight_decay, c.grad_clip = grad_clip;
    c.beta1 = beta1, c.beta2 = beta2, c.total_steps = total_steps;
    return c;
  }
};

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
    trainer_.emplace(nc, h_.adamw(), h_.threads, seed);
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
  training_parameters h_;

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
  tasks::task_spec spec_;
  bool classes_ = false, learning_ = true;
  std::optional<trainer<Layer>> trainer_;
  std::int32_t max_T_ = 0;
  std::vector<float> kept_;  // keep_checkpoint's weights
};

/// E88's architecture: seed section 3.1's presets, each key overriding them.
struct e88_parameters {
  BOOST_HANA_DEFINE_STRUCT(e88_parameters, (std::string, preset), (int, layers), (int, heads), (int, n_state),
                           (int, head_v), (int, dim), (bool, gate), (std::string, variant));
  static void describe(parameter_schema<e88_parameters>& s) {
    const auto four = [](const e88_parameters& p) { return p.preset == "E88-4L"; };
    s("preset", "E88-1L").one_of({"E88-1L", "E88-4L"}).doc("a named configuration; the keys below override it");
    s("layers", [=](const e88_parameters& p) { return four(p) ? 4 : 1; }).in(1, 256).doc("layers (E88-4L: 4)");
    s("heads", [=](const e88_parameters& p) { return four(p) ? 4 : 16; }).in(1, 1024).doc("heads (E88-4L: 4)");
    s("n_state", 32).in(1, 1024).doc("rows of each head's matrix state");
    s("head_v",
      [](const e88_parameters& p) {
        // head_v defaults to n_state but is at most 256: name the key the user set.
        if (p.n_state > 256)
          throw parameter_error(
              "n_state", "above 256 needs head_v (at most 256, default n_state) set, got " + std::to_string(p.n_state));
        return p.n_state;
      })
        .in(1, 256)
        .doc("columns of each head's matrix state (default n_state)");
    s("dim", [=](const e88_parameters& p) { return four(p) ? 64 : 128; }).in(1, 1 << 16).doc("width (E88-4L: 64)");
    s("gate", false).doc("the output gate o * silu(u W_g) (off in both presets, as in the authors' E88)");
    s("variant", "authors").one_of({"authors", "simple", "linear", "simple_linear"}).doc("the recurrence's form");
  }
};

/// E88: tanh matrix-state recurrence (e88.hpp), presets E88-1L and E88-4L.
class e88_model : public trained_model<e88_layer, e88_model> {
 public:
  static constexpr const char* name = "e88";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "E88 tanh matrix-state recurrence (presets E88-1L, E88-4L; variant authors | simple | linear | simple_linear), AdamW";
  using parameter_structs = bem::parameter_structs<e88_parameters, training_parameters>;

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
    const auto v = read_parameters<e88_parameters>(p);
    layers_ = v.layers;
    lc_.heads = v.heads, lc_.n_state = v.n_state, lc_.head_v = v.head_v, lc_.dim = v.dim, lc_.gate = v.gate;
    lc_.variant = v.variant == "simple"          ? e88_variant::simple
                  : v.variant == "linear"        ? e88_variant::linear
                  : v.variant == "simple_linear" ? e88_variant::simple_linear
                                                 : e88_variant::authors;
    h_ = read_parameters<training_parameters>(p);
    lc_.chunk = h_.checkpoint_every;
  }
  e88_config lc_{};
  int layers_ = 1;
};

/// Mamba2's architecture: seed section 3.1's presets and the reference defaults.
struct mamba2_parameters {
  BOOST_HANA_DEFINE_STRUCT(mamba2_parameters, (std::string, preset), (int, layers), (int, d_model), (int, d_state),
                           (int, expand), (int, headdim), (int, d_conv), (std::string, variant));
  static void describe(parameter_schema<mamba2_parameters>& s) {
    s("preset", "Mamba2-4L").one_of({"Mamba2-4L", "Mamba2-8L", "Mamba2-16L", "Mamba2-32L"}).doc("a named depth");
    s("layers",
      [](const mamba2_parameters& p) {
        return p.preset == "Mamba2-8L" ? 8 : p.preset == "Mamba2-16L" ? 16 : p.preset == "Mamba2-32L" ? 32 : 4;
      })
        .in(1, 1024)
        .doc("blocks (the preset's number)");
    s("d_model", 64).in(1, 1 << 16).doc("width");
    s("d_state", 16).in(1, 1024).doc("SSM state size");
    s("expand", 2).in(1, 16).doc("inner width over d_model");
    s("headdim", 64).in(1, 4096).doc("head width; expand * d_model must be a multiple of it");
    s("d_conv", 4).in(1, 64).doc("causal convolution width");
    s("variant", "standard").one_of({"standard", "negative_eigenvalue"}).doc("the state transition's range");
  }
};

/// Mamba2 (SSD) blocks (mamba2.hpp), presets Mamba2-4L/8L/16L/32L.
class mamba2_model : public trained_model<mamba2_layer, mamba2_model> {
 public:
  static constexpr const char* name = "mamba2";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "Mamba2 SSD blocks, sequential scan (presets Mamba2-4L/8L/16L/32L; variant standard | negative_eigenvalue), AdamW";
  using parameter_structs = bem::parameter_structs<mamba2_parameters, training_parameters>;

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
    const auto v = read_parameters<mamba2_parameters>(p);
    layers_ = v.layers;
    lc_.dim = v.d_model, lc_.d_state = v.d_state, lc_.expand = v.expand, lc_.headdim = v.headdim, lc_.d_conv = v.d_conv;
    lc_.variant = v.variant == "negative_eigenvalue" ? mamba2_variant::negative_eigenvalue : mamba2_variant::standard;
    h_ = read_parameters<training_parameters>(p);
    lc_.chunk = h_.checkpoint_every;
    if ((lc_.expand * lc_.dim) % lc_.headdim != 0)
      throw parameter_error("headdim", "expand * d_model must be a multiple of headdim");
  }
  mamba2_config lc_{};
  int layers_ = 4;
};

/// The linear RNN's architecture (preset Linear-RNN).
struct linear_rnn_parameters {
  BOOST_HANA_DEFINE_STRUCT(linear_rnn_parameters, (std::string, preset), (int, layers), (int, hidden), (int, dim));
  static void describe(parameter_schema<linear_rnn_parameters>& s) {
    s("preset", "Linear-RNN").one_of({"Linear-RNN"}).doc("the seed's configuration");
    s("layers", 1).in(1, 256).doc("layers");
    s("hidden", 128).in(1, 1 << 16).doc("recurrent state size");
    s("dim", [](const linear_rnn_parameters& p) { return p.hidden; }).in(1, 1 << 16).doc("width (default hidden)");
  }
};

/// Linear RNN baseline h = A h + B x, y = C h (baseline_layers.hpp).
class linear_rnn_model : public trained_model<linear_rnn_layer, linear_rnn_model> {
 public:
  static constexpr const char* name = "linear_rnn";
  static constexpr const char* version = "1";
  static constexpr const char* description = "linear RNN h = A h + B x, y = C h (preset Linear-RNN: hidden 128), AdamW";
  using parameter_structs = bem::parameter_structs<linear_rnn_parameters, training_parameters>;

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
    const auto v = read_parameters<linear_rnn_parameters>(p);
    layers_ = v.layers, lc_.hidden = v.hidden, lc_.dim = v.dim;
    h_ = read_parameters<training_parameters>(p);
  }
  linear_rnn_config lc_{};
  int layers_ = 1;
};

/// The MLP's architecture (preset MLP).
struct mlp_parameters {
  BOOST_HANA_DEFINE_STRUCT(mlp_parameters, (std::string, preset), (int, layers), (int, hidden));
  static void describe(parameter_schema<mlp_parameters>& s) {
    s("preset", "MLP").one_of({"MLP"}).doc("the seed's configuration");
    s("layers", 4).in(1, 256).doc("layers");
    s("hidden", 128).in(1, 1 << 16).doc("width");
  }
};

/// MLP baseline without recurrence (baseline_layers.hpp).
class mlp_model : public trained_model<mlp_layer, mlp_model> {
 public:
  static constexpr const char* name = "mlp";
  static constexpr const char* version = "1";
  static constexpr const char* description = "per-position MLP, no recurrence (preset MLP: 4 layers, hidden 128), AdamW";
  using parameter_structs = bem::parameter_structs<mlp_parameters, training_parameters>;

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
    const auto v = read_parameters<mlp_parameters>(p);
    layers_ = v.layers, lc_.dim = v.hidden;
    h_ = read_parameters<training_parameters>(p);
  }
  mlp_config lc_{};
  int layers_ = 4;
};

}  // namespace nn
BEM_NAMESPACE_END
