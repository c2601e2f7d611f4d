// Keeps the kb library non-empty until its first real source lands; delete then.
namespace netdoctor::kb {
int placeholder_symbol() { return 0; }
}  // namespace netdoctor::kb
