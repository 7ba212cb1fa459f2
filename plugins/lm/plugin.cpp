// BEM suite §4, language modelling, as the benchmarks `charlm` (§4.1,
// next character over the alphabet C) and `codelm` (§4.2, next Rust token):
// each model of `models` is trained on the corpus's training split and
// scored on its test split (docs/language-modelling.md).
//
// Corpora (tasks/corpus.hpp): `corpus` names an installed, pinned one
// ("english": linux-doc-6.1, "rust": rust-src), or `corpus_dir` a folder of
// one's own (split by the same rule, hashes reported, not checked).
// `train_symbols` > 0 keeps only the last that many symbols of the training
// split (the training budget); 0 keeps it all.
//
// Models:
//   bem  the BEM language model (bem/learn/language_model.hpp), trained
//        online on train, then scored on test twice from the same trained
//        state: mode=frozen (SHARED and Theta fixed, §4.1.2) and
//        mode=adaptive (learning while scoring, as a compressor does).
//   kn   the interpolated modified Kneser-Ney n-gram of order `kn_order`
//        (bem/learn/ngram.hpp; for tokens at most 64 / bits per token),
//        the entropy-rate reference of §4.1.2.
//   e88, mamba2 (charlm only)  bem::nn's E88-1L and Mamba2-4L with a
//        softmax head over C (bem/learn/language_model_nn.hpp), trained by
//        truncated BPTT on `nn_train_symbols` characters of windows drawn
//        from the training split, scored frozen.
// The test split is read as the continuation of the training split (its
// first symbols have the end of train as context), for every model.
//
// Records (split "model=NAME,mode=MODE", condition {model, mode, corpus}):
//   bits_per_char / bits_per_token   mean -log2 p over the test symbols
//   perplexity                       2^bits
//   cycles_per_char / cycles_per_token   scoring cost per test symbol
//                                    (with mode=adaptive, learning included)
//   tokens_per_second                clock_frequency_hz / cycles per symbol
//                                    (§4.1.3; the calibrated core clock)
//   training_tokens                  training symbols consumed
//   lm_specialised                   1: the configuration is specialised
//                                    for language modelling (§4.1.3 asks)
//   codelm only: syntax_error_rate   the fraction of `samples` sampled
//                                    continuations of `sample_length`
//                                    tokens, each after a test prefix at a
//                                    seeded position, whose brackets do not
//                                    balance against the prefix's open ones
//                                    (tasks/rust_tokens.hpp); also for
//                                    model=reference, the test's own tokens
// Learning curve (split "model=bem,train=N"): bits per symbol of the first
// `curve_symbols` symbols of the validation split, frozen, after N training
// symbols, N log-spaced. Corpus statistics (split "corpus=NAME,split=S"):
// characters, files, the unigram entropy and distinct characters of each
// split; the mapping onto C over all files (bytes, tabs, non-ASCII
// characters, ...); each split's SHA-256 in the breakdown. codelm adds
// tokens, vocabulary size and the test's OOV rate.
#include <bem/harness/benchmark.hpp>
#include <bem/learn/language_model.hpp>
#include <bem/learn/language_model_nn.hpp>
#include <bem/learn/ngram.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/plugin/adapter.hpp>
#include <tasks/corpus.hpp>
#include <tasks/rust_tokens.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace {

namespace tk = bem::tasks;
namespace ln = bem::learn;
using bem::metrics::better;
using conditions = std::vector<tk::condition_field>;

/// The corpus, the models and their settings; codelm reads the Rust corpus by default.
template <bool Code>
struct lm_parameters {
  BOOST_HANA_DEFINE_STRUCT(lm_parameters, (std::string, corpus), (std::string, corpus_dir),
                           (std::vector<std::string>, models), (std::int64_t, train_symbols), (int, kn_order),
                           (int, table_bits), (int, curve_points), (std::int64_t, curve_symbols));
  static void describe(bem::parameter_schema<lm_parameters>& s) {
    s("corpus", Code ? "rust" : "english").one_of({"english", "rust"}).doc("the installed corpus (ignored with corpus_dir)");
    s("corpus_dir", "").doc("a folder of one's own to read instead (every file; unpinned)");
    auto& models = s("models", std::vector<std::string>{"bem", "kn"}).doc("the models measured");
    if (Code) models.one_of({"bem", "kn"});
    else models.one_of({"bem", "kn", "e88", "mamba2"});
    s("train_symbols", 0).in(0, std::int64_t{1} << 40).doc("training budget: the last N training symbols (0: all)");
    s("kn_order", 6).in(1, 9).doc("the Kneser-Ney model's highest order");
    s("table_bits", 18).in(10, 18).doc("bem: log2 of each context expert's 64-byte blocks");
    s("curve_points", 8).in(0, 64).doc("bem: learning-curve points (log-spaced numbers of training symbols)");
    s("curve_symbols", 100000).in(1, std::int64_t{1} << 40).doc("bem: validation symbols scored at each point");
  }
};

/// charlm's e88 and mamba2: the training budget and optimiser (bem/learn/language_model_nn.hpp).
struct nn_lm_parameters {
  BOOST_HANA_DEFINE_STRUCT(nn_lm_parameters, (std::int64_t, nn_train_symbols), (int, nn_window), (int, nn_batch),
                           (double, nn_lr), (double, nn_lr_min), (int, nn_threads));
  static void describe(bem::parameter_schema<nn_lm_parameters>& s) {
    s("nn_train_symbols", 4000000).in(1, std::int64_t{1} << 40).doc("e88, mamba2: training characters consumed (whole steps)");
    s("nn_window", 256).in(2, 1 << 16).doc("e88, mamba2: characters per training window (BPTT length); scoring context");
    s("nn_batch", 8).in(1, 1 << 16).doc("e88, mamba2: windows per AdamW step");
    s("nn_lr", 5e-3).in(0, 10).doc("e88, mamba2: AdamW learning rate (cosine to nn_lr_min)");
    s("nn_lr_min", 5e-4).in(0, 10).doc("e88, mamba2: the cosine schedule's floor");
    s("nn_threads", 2).in(1, 256).doc("e88, mamba2: threads over each batch");
  }
};

struct code_parameters {
  BOOST_HANA_DEFINE_STRUCT(code_parameters, (std::int64_t, min_count), (std::int64_t, samples),
                           (std::int64_t, sample_length));
  static void describe(bem::parameter_schema<code_parameters>& s) {
    s("min_count", 2).in(1, 1000000).doc("a training token is in the vocabulary when seen this often");
    s("samples", 200).in(0, 1000000).doc("continuations sampled for the syntax error rate");
    s("sample_length", 64).in(1, 100000).doc("tokens per sampled continuation");
  }
};

/// What one run measures on: symbols of train (the budget's tail) then test.
struct symbol_data {
  std::vector<std::uint32_t> stream;  // train then test
  std::size_t train = 0;
  std::vector<std::uint32_t> validation;
  std::uint32_t vocabulary = 0;
  std::span<const std::uint32_t> test() const { return std::span(stream).subspan(train); }
};

class lm_benchmark {
 public:
  lm_benchmark(bem::parameters& p, bool code) : code_(code) {
    const auto take = [&](const auto& v) {
      s_ = {v.corpus, v.corpus_dir, v.models, v.train_symbols, v.kn_order, v.table_bits, v.curve_points,
            v.curve_symbols};
    };
    if (code) {
      take(bem::read_parameters<lm_parameters<true>>(p));
      c_ = bem::read_parameters<code_parameters>(p);
    } else {
      take(bem::read_parameters<lm_parameters<false>>(p));
      nn_ = bem::read_parameters<nn_lm_parameters>(p);
    }
    if (s_.models.empty()) throw bem::parameter_error("models", "must name at least one model");
  }

  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    const tk::corpus corpus = s_.corpus_dir.empty() ? tk::load_corpus(tk::corpus_named(s_.corpus))
                                                    : tk::corpus_from_folder("folder", s_.corpus_dir);
    corpus_name_ = s_.corpus_dir.empty() ? s_.corpus : "folder";
    emit_corpus_statistics(corpus, sink);
    symbol_data d = code_ ? code_symbols(corpus, sink) : char_symbols(corpus);
    for (const auto& m : s_.models) {
      if (m == "bem") run_bem(d, seed, sink);
      else if (m == "e88") run_nn<bem::nn::e88_model>("e88", "E88-1L", d, seed, sink);
      else if (m == "mamba2") run_nn<bem::nn::mamba2_model>("mamba2", "Mamba2-4L", d, seed, sink);
      else run_kn(d, seed, sink);
    }
    if (code_ && c_.samples > 0) emit_reference_syntax(d, seed, sink);
  }

 private:
  const char* unit_symbol() const { return code_ ? "token" : "char"; }

  void emit(bem::benchmark_sink& sink, const std::string& split, const conditions& c, const std::string& metric,
            double value, const std::string& unit, better dir, std::int64_t n, bool timing = false,
            std::vector<std::pair<std::string, std::string>> breakdown = {}) const {
    sink.emit(bem::benchmark_record::scalar(split, c, metric, value, unit, dir, n, code_ ? "tokens" : "characters",
                                            timing, std::move(breakdown)));
  }

  void emit_corpus_statistics(const tk::corpus& c, bem::benchmark_sink& sink) const {
    const std::string base = "corpus=" + corpus_name_;
    const conditions cond = {tk::string_field("corpus", corpus_name_)};
    const std::vector<std::pair<std::string, std::string>> source = {
        {"package", c.package.empty() ? "none (a folder)" : c.package + " " + c.version}};
    for (std::size_t s = 0; s < 3; ++s) {
      tk::character_distribution dist;
      dist.add(c.text[s]);
      const std::string split = base + ",split=" + tk::corpus_split_names[s];
      auto cs = cond;
      cs.push_back(tk::string_field("split", tk::corpus_split_names[s]));
      auto b = source;
      b.emplace_back("sha256", c.sha256[s]);
      const auto n = static_cast<std::int64_t>(c.text[s].size());
      emit(sink, split, cs, "characters", static_cast<double>(n), "characters", better::none, n, false, b);
      emit(sink, split, cs, "files", static_cast<double>(c.files[s].size()), "files", better::none, n);
      emit(sink, split, cs, "unigram_entropy", dist.entropy_bits(), "bits per character", better::none, n);
      emit(sink, split, cs, "distinct_characters", dist.distinct(), "characters of C", better::none, n);
    }
    const auto& m = c.mapping;
    const auto bytes = static_cast<std::int64_t>(m.bytes);
    const std::pair<const char*, std::uint64_t> mapped[] = {
        {"input_bytes", m.bytes},          {"bytes_in_alphabet", m.kept},
        {"tabs_to_space", m.tabs},         {"carriage_returns_dropped", m.carriage_returns},
        {"non_ascii_to_question_mark", m.non_ascii_characters},
        {"utf8_continuation_bytes_dropped", m.continuation_bytes},
        {"other_controls_to_question_mark", m.other_controls}};
    for (const auto& [metric, v] : mapped)
      emit(sink, base + ",mapping", cond, metric, static_cast<double>(v), "bytes", better::none, bytes, false, source);
  }

  symbol_data char_symbols(const tk::corpus& c) const {
    symbol_data d;
    d.vocabulary = tk::alphabet_size;
    const std::string& train = c.split(tk::corpus_split::train);
    const std::size_t keep = budget(train.size());
    for (std::size_t i = train.size() - keep; i < train.size(); ++i) d.stream.push_back(sym(train[i]));
    d.train = d.stream.size();
    for (char ch : c.split(tk::corpus_split::test)) d.stream.push_back(sym(ch));
    for (char ch : c.split(tk::corpus_split::validation)) d.validation.push_back(sym(ch));
    return d;
  }
  static std::uint32_t sym(char c) { return static_cast<std::uint32_t>(tk::symbol_of(c)); }
  std::size_t budget(std::size_t n) const {
    return s_.train_symbols > 0 ? std::min(n, static_cast<std::size_t>(s_.train_symbols)) : n;
  }

  symbol_data code_symbols(const tk::corpus& c, bem::benchmark_sink& sink) {
    const auto train_tokens = tk::tokenize_rust(c.split(tk::corpus_split::train));
    const auto test_tokens = tk::tokenize_rust(c.split(tk::corpus_split::test));
    vocab_ = std::make_unique<tk::token_vocabulary>(train_tokens, static_cast<std::uint64_t>(c_.min_count));
    symbol_data d;
    d.vocabulary = vocab_->size();
    const auto train = vocab_->ids(train_tokens);
    const std::size_t keep = budget(train.size());
    d.stream.assign(train.end() - static_cast<std::ptrdiff_t>(keep), train.end());
    d.train = d.stream.size();
    std::int64_t oov = 0;
    for (auto id : vocab_->ids(test_tokens)) d.stream.push_back(id), oov += vocab_->is_oov(id);
    d.validation = vocab_->ids(tk::tokenize_rust(c.split(tk::corpus_split::validation)));
    const std::string split = "corpus=" + corpus_name_ + ",tokens";
    const conditions cond = {tk::string_field("corpus", corpus_name_), tk::number_field("min_count", c_.min_count)};
    const auto nt = static_cast<std::int64_t>(test_tokens.size());
    emit(sink, split, cond, "train_tokens", static_cast<double>(train.size()), "tokens", better::none, nt);
    emit(sink, split, cond, "test_tokens", static_cast<double>(nt), "tokens", better::none, nt);
    emit(sink, split, cond, "vocabulary_size", d.vocabulary, "tokens (with 8 OOV tokens)", better::none, nt);
    emit(sink, split, cond, "test_oov_rate", static_cast<double>(oov) / static_cast<double>(std::max<std::int64_t>(nt, 1)),
         "fraction", better::none, nt);
    return d;
  }

  ln::language_model_config bem_config(const symbol_data& d) const {
    ln::language_model_config cfg;
    cfg.vocabulary = d.vocabulary;
    cfg.table_bits = s_.table_bits;
    if (code_) {
      cfg.symbols = ln::lm_symbols::code_tokens;
      for (std::uint32_t i = 0; i < d.vocabulary; ++i) {
        const std::string& t = vocab_->text(i);
        ln::token_role r = vocab_->kind(i) == tk::token_class::identifier ? ln::token_role::identifier
                                                                          : ln::token_role::other;
        if (t == "(") r = ln::token_role::open_paren;
        else if (t == "[") r = ln::token_role::open_bracket;
        else if (t == "{") r = ln::token_role::open_brace;
        else if (t == ")") r = ln::token_role::close_paren;
        else if (t == "]") r = ln::token_role::close_bracket;
        else if (t == "}") r = ln::token_role::close_brace;
        cfg.roles.push_back(r);
      }
    }
    return cfg;
  }

  /// The records every model gives for one mode.
  void emit_scores(bem::benchmark_sink& sink, const std::string& model, const std::string& mode, double bits,
                   double cycles, const bem::cycle_counter& counter, std::size_t train_symbols, std::size_t n,
                   bool specialised = true,
                   const char* why = "its contexts, tables and mixer are made for next-symbol prediction") const {
    const std::string split = "model=" + model + ",mode=" + mode;
    const conditions c = {tk::string_field("model", model), tk::string_field("mode", mode),
                          tk::string_field("corpus", corpus_name_)};
    const double per = bits / static_cast<double>(n), cyc = cycles / static_cast<double>(n);
    const auto nn = static_cast<std::int64_t>(n);
    const std::string u = unit_symbol();
    emit(sink, split, c, "bits_per_" + u, per, "bits per " + u, better::lower, nn);
    emit(sink, split, c, "perplexity", std::exp2(per), "", better::lower, nn);
    emit(sink, split, c, "cycles_per_" + u, cyc, counter.unit(), better::lower, nn, true);
    emit(sink, split, c, "tokens_per_second", counter.calibration().core_clock_hz / cyc, "tokens/s", better::higher,
         nn, true);
    emit(sink, split, c, "training_tokens", static_cast<double>(train_symbols), code_ ? "tokens" : "characters",
         better::none, nn);
    emit(sink, split, c, "lm_specialised", specialised ? 1.0 : 0.0, "flag", better::none, nn, false, {{"note", why}});
  }

  void run_bem(const symbol_data& d, std::uint64_t seed, bem::benchmark_sink& sink) {
    ln::language_model m(bem_config(d));
    // Learning curve points: log-spaced, the last the whole training split.
    std::vector<std::size_t> points;
    for (int i = 1; i <= s_.curve_points; ++i)
      points.push_back(static_cast<std::size_t>(
          std::llround(static_cast<double>(d.train) * std::pow(2.0, -(s_.curve_points - i)))));
    const std::size_t curve_n = std::min<std::size_t>(d.validation.size(), static_cast<std::size_t>(s_.curve_symbols));
    std::size_t next = 0;
    for (std::size_t i = 0; i < d.train; ++i) {
      m.code_length(d.stream[i], true);
      while (next < points.size() && points[next] == i + 1) {
        const auto snap = m.save();
        double bits = 0;
        for (std::size_t j = 0; j < curve_n; ++j) bits += m.code_length(d.validation[j], false);
        m.restore(snap);
        const std::string split = "model=bem,train=" + std::to_string(i + 1);
        emit(sink, split,
             {tk::string_field("model", "bem"), tk::number_field("train", static_cast<long long>(i + 1)),
              tk::string_field("corpus", corpus_name_)},
             std::string("validation_bits_per_") + unit_symbol(), bits / static_cast<double>(curve_n),
             std::string("bits per ") + unit_symbol(), better::lower, static_cast<std::int64_t>(curve_n));
        ++next;
      }
    }
    const auto test = d.test();
    const auto trained = m.save();
    for (const bool adaptive : {false, true}) {
      m.restore(trained);  // STATE only: frozen scoring leaves SHARED and Theta as trained
      bem::cycle_counter counter;
      double bits = 0;
      counter.start();
      for (auto s : test) bits += m.code_length(s, adaptive);
      const double cycles = counter.stop().cycles;
      emit_scores(sink, "bem", adaptive ? "adaptive" : "frozen", bits, cycles, counter, d.train, test.size());
      if (!adaptive && code_ && c_.samples > 0) {
        m.restore(trained);
        emit_syntax(sink, "bem", d, seed,
                    [&](std::size_t at, std::vector<std::uint32_t>& out) {
                      const auto snap = m.save();
                      bem::xoshiro256ss rng(bem::derive_seed(seed, bem::fnv1a64("codelm sample"), at));
                      for (std::int64_t k = 0; k < c_.sample_length; ++k) out.push_back(m.sample(rng));
                      m.restore(snap);
                    },
                    [&](std::size_t from, std::size_t to) {
                      for (std::size_t i = from; i < to; ++i) m.code_length(d.stream[i], false);
                    });
      }
    }
  }

  void run_kn(const symbol_data& d, std::uint64_t seed, bem::benchmark_sink& sink) {
    const int b = std::max(1, static_cast<int>(std::bit_width(d.vocabulary - 1u)));
    const int order = std::min(s_.kn_order, 64 / b);
    const std::span<const std::uint32_t> all(d.stream);
    const ln::kneser_ney_model kn(all.first(d.train), d.vocabulary, order);
    bem::cycle_counter counter;
    double bits = 0;
    counter.start();
    for (std::size_t i = d.train; i < all.size(); ++i) bits -= std::log2(kn.probability(all.first(i), all[i]));
    const double cycles = counter.stop().cycles;
    const std::string name = "kn" + std::to_string(order);
    emit_scores(sink, name, "frozen", bits, cycles, counter, d.train, all.size() - d.train);
    if (code_ && c_.samples > 0)
      emit_syntax(sink, name, d, seed, [&](std::size_t at, std::vector<std::uint32_t>& out) {
        bem::xoshiro256ss rng(bem::derive_seed(seed, bem::fnv1a64("codelm sample"), at));
        std::vector<std::uint32_t> h(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(at));
        for (std::int64_t k = 0; k < c_.sample_length; ++k) {
          const std::uint32_t s = kn.sample(h, rng);
          h.push_back(s), out.push_back(s);
        }
      }, [](std::size_t, std::size_t) {});
  }

  /// e88 / mamba2: the preset with a softmax head over C, trained on windows
  /// of the training split (language_model_nn.hpp).
  template <class Model>
  void run_nn(const std::string& name, const char* preset, const symbol_data& d, std::uint64_t seed,
              bem::benchmark_sink& sink) const {
    bem::parameters arch;
    arch.set("preset", std::string(preset));
    ln::nn_lm_settings st;
    st.train_symbols = nn_.nn_train_symbols, st.window = nn_.nn_window, st.batch = nn_.nn_batch;
    st.lr = nn_.nn_lr, st.lr_min = nn_.nn_lr_min, st.threads = nn_.nn_threads;
    ln::nn_char_lm<Model> m(arch, st, d.vocabulary, seed);
    const std::span<const std::uint32_t> all(d.stream);
    bem::cycle_counter training;
    training.start();
    const ln::nn_lm_training r = m.train(all.first(d.train), seed);
    const double train_cycles = training.stop().cycles;
    bem::cycle_counter counter;
    counter.start();
    const double bits = m.code_length(all, d.train);
    const double cycles = counter.stop().cycles;
    const std::size_t n = all.size() - d.train;
    emit_scores(sink, name, "frozen", bits, cycles, counter, static_cast<std::size_t>(r.symbols), n, false,
                "the seed's preset with a softmax head over C: a general sequence model, not made for text");
    const std::string split = "model=" + name + ",mode=frozen";
    const conditions c = {tk::string_field("model", name), tk::string_field("mode", "frozen"),
                          tk::string_field("corpus", corpus_name_)};
    const auto nn = static_cast<std::int64_t>(n);
    emit(sink, split, c, "parameters", static_cast<double>(m.parameter_count()), "parameters", better::none, nn, false,
         {{"preset", preset}});
    emit(sink, split, c, "training_steps", static_cast<double>(r.steps), "AdamW steps", better::none, nn);
    emit(sink, split, c, "training_bits_per_char", r.final_bits_per_symbol, "bits per char (the last 5 % of steps)",
         better::none, nn);
    emit(sink, split, c, "training_cycles_per_char", train_cycles / static_cast<double>(r.symbols), training.unit(),
         better::lower, nn, true);
  }

  /// The sample positions: `samples` test positions drawn from the seed, sorted.
  std::vector<std::size_t> sample_positions(const symbol_data& d, std::uint64_t seed) const {
    bem::xoshiro256ss rng(bem::derive_seed(seed, bem::fnv1a64("codelm sample positions"), 0));
    std::vector<std::size_t> v;
    const std::size_t n = d.stream.size() - d.train;
    const auto L = static_cast<std::size_t>(c_.sample_length);
    for (std::int64_t i = 0; i < c_.samples && n > L; ++i) v.push_back(d.train + rng.uniform_below(n - L));
    std::sort(v.begin(), v.end());
    return v;
  }

  /// syntax_error_rate of `draw(at, out)` (a continuation after position at);
  /// `advance(from, to)` moves a streaming model's STATE over the test.
  template <class Draw, class Advance>
  void emit_syntax(bem::benchmark_sink& sink, const std::string& model, const symbol_data& d, std::uint64_t seed,
                   Draw&& draw, Advance&& advance) const {
    const auto at = sample_positions(d, seed);
    std::size_t pos = d.train, errors = 0;
    std::vector<char> open;  // the brackets the test's tokens before pos leave open, innermost last
    for (std::size_t a : at) {
      advance(pos, a);
      for (; pos < a; ++pos) {
        const std::string& t = vocab_->text(d.stream[pos]);
        if (t == "(" || t == "[" || t == "{") open.push_back(t[0]);
        else if ((t == ")" || t == "]" || t == "}") && !open.empty()) open.pop_back();
      }
      std::vector<std::uint32_t> out;
      draw(a, out);
      std::vector<std::string> texts;
      for (auto s : out) texts.push_back(vocab_->text(s));
      errors += !tk::brackets_balanced(open, texts);
    }
    const std::string split = "model=" + model + ",mode=" + (model == "reference" ? "test" : "frozen");
    emit(sink, split,
         {tk::string_field("model", model), tk::number_field("sample_length", c_.sample_length),
          tk::string_field("corpus", corpus_name_)},
         "syntax_error_rate", static_cast<double>(errors) / static_cast<double>(std::max<std::size_t>(at.size(), 1)),
         "fraction of continuations with unmatched brackets", better::lower, static_cast<std::int64_t>(at.size()));
  }

  void emit_reference_syntax(const symbol_data& d, std::uint64_t seed, bem::benchmark_sink& sink) const {
    emit_syntax(sink, "reference", d, seed, [&](std::size_t a, std::vector<std::uint32_t>& out) {
      for (std::int64_t k = 0; k < c_.sample_length; ++k) out.push_back(d.stream[a + static_cast<std::size_t>(k)]);
    }, [](std::size_t, std::size_t) {});
  }

  struct settings {
    std::string corpus, corpus_dir;
    std::vector<std::string> models;
    std::int64_t train_symbols;
    int kn_order, table_bits, curve_points;
    std::int64_t curve_symbols;
  };
  bool code_;
  settings s_;
  code_parameters c_{};
  nn_lm_parameters nn_{};
  std::string corpus_name_;
  std::unique_ptr<tk::token_vocabulary> vocab_;
};

struct charlm_benchmark : lm_benchmark {
  using parameter_structs = bem::parameter_structs<lm_parameters<false>, nn_lm_parameters>;
  static constexpr const char* name = "charlm";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 4.1: bits per character of the BEM language model (frozen and adaptive), a Kneser-Ney n-gram, and "
      "E88 and Mamba2 with a softmax head, on a pinned corpus over the 96-character alphabet";
  explicit charlm_benchmark(bem::parameters& p) : lm_benchmark(p, false) {}
};

struct codelm_benchmark : lm_benchmark {
  using parameter_structs = bem::parameter_structs<lm_parameters<true>, code_parameters>;
  static constexpr const char* name = "codelm";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 4.2: bits per Rust token, and the bracket errors of sampled continuations, of the BEM language model and "
      "a Kneser-Ney n-gram on the Rust standard library";
  explicit codelm_benchmark(bem::parameters& p) : lm_benchmark(p, true) {}
};

}  // namespace

BEM_PLUGIN("lm", "1", BEM_TASKS(), BEM_MODELS(), BEM_BENCHMARKS(charlm_benchmark, codelm_benchmark))
