// Keeps the plan library non-empty until its first real source lands; delete then.
namespace netdoctor::plan {
int placeholder_symbol() { return 0; }
}  // namespace netdoctor::plan
