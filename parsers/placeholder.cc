// Keeps the parsers library non-empty until its first real source lands; delete then.
namespace netdoctor::parsers {
int placeholder_symbol() { return 0; }
}  // namespace netdoctor::parsers
