// Keeps the sim library non-empty until its first real source lands; delete then.
namespace netdoctor::sim {
int placeholder_symbol() { return 0; }
}  // namespace netdoctor::sim
