// HOARE_CHECK, the whole component (bem::prover::hoare; its parts in bem/prover/hoare/).
#pragma once

#include <bem/prover/hoare/check.hpp>
#include <bem/prover/hoare/encoder.hpp>
#include <bem/prover/hoare/interpreter.hpp>
#include <bem/prover/hoare/language.hpp>
#include <bem/prover/hoare/random_program.hpp>
#include <bem/prover/hoare/typing.hpp>
#include <bem/prover/hoare/wp.hpp>
