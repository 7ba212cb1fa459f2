// bem — version and the inline ABI namespace.
//
// Every declaration of the library lives in bem::BEM_ABI_NAMESPACE, an inline
// namespace whose name encodes the library version and each configuration
// macro that changes a layout or an inline function's behaviour. Two
// translation units built with different versions or configurations then
// refer to different symbols, so mixing them fails at link time instead of
// silently violating the one-definition rule (the approach of nlohmann/json
// and fmt). The plugin boundary is plain C and does not depend on this tag;
// plugins still report it so `bem-bench list` can show how each was built.
#pragma once

#define BEM_VERSION_MAJOR 0
#define BEM_VERSION_MINOR 1
#define BEM_VERSION_PATCH 0
#define BEM_VERSION_STRING "0.1.0"

// BEM_CHECKED=1 turns on bounds checks in batch and prediction accessors
// (an inline-behaviour change, hence part of the tag). Default: off.
#ifndef BEM_CHECKED
#define BEM_CHECKED 0
#endif

#define BEM_DETAIL_CAT5(a, b, c, d, e) a##b##_##c##_##d##e
#define BEM_DETAIL_ABI_NAME(major, minor, patch, cfg) BEM_DETAIL_CAT5(v, major, minor, patch, cfg)

#if BEM_CHECKED
#define BEM_DETAIL_ABI_CONFIG _checked
#define BEM_DETAIL_ABI_CONFIG_STRING "_checked"
#else
#define BEM_DETAIL_ABI_CONFIG
#define BEM_DETAIL_ABI_CONFIG_STRING ""
#endif

/// The inline namespace, e.g. `v0_1_0` or `v0_1_0_checked`.
#define BEM_ABI_NAMESPACE BEM_DETAIL_ABI_NAME(BEM_VERSION_MAJOR, BEM_VERSION_MINOR, BEM_VERSION_PATCH, BEM_DETAIL_ABI_CONFIG)

#define BEM_DETAIL_STR2(x) #x
#define BEM_DETAIL_STR(x) BEM_DETAIL_STR2(x)
/// The same tag as a string literal.
#define BEM_ABI_TAG BEM_DETAIL_STR(BEM_ABI_NAMESPACE)

#define BEM_NAMESPACE_BEGIN namespace bem { inline namespace BEM_ABI_NAMESPACE {
#define BEM_NAMESPACE_END } }

BEM_NAMESPACE_BEGIN
/// Library version as a string, "MAJOR.MINOR.PATCH".
inline constexpr const char* version_string = BEM_VERSION_STRING;
/// The inline ABI namespace as a string, e.g. "v0_1_0".
inline constexpr const char* abi_tag = BEM_ABI_TAG;
BEM_NAMESPACE_END
