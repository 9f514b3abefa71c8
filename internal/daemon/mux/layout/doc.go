// Package layout is the tiling tree of one workspace, as tmux's and
// zellij's: where each window's tile is, how the tree changes when a
// window splits, arrives or leaves, how it is laid out in an area
// (Tree.Place), and its form in the sessions file (Saved, Load).
//
// A Tree's leaves are windows, known only by id; its inner nodes are
// splits. A split lays its children out side by side (left to right, a
// border column apart) or stacked (top to bottom, the lower one's title
// bar being the line between them), each child taking its share of the
// split's length. A split never holds a child split of its own
// direction (that child's children are the split's own), and never
// fewer than two children.
//
// Shares are relative, so a new area scales every tile in proportion.
// When the tree changes (a split, a window leaving), the shares of the
// split that changes are first set to the cells its children had in the
// last placement, so the change is exact in cells: a split halves the
// tile it splits and no other tile moves; a window that leaves gives its
// cells (and its border) to the sibling before it, else the one after,
// as tmux does. Windows that arrive without a split asked for (Tree.Add)
// make a master on the left and an even stack on the right.
//
// The package does not know which windows exist, which is focused,
// zoomed or minimized, nor which workspace is on screen: the core
// (package daemon) keeps each session's trees in step with its windows
// under its lock and passes what is shown and focused to Place. A Tree
// has no lock of its own; its owner serializes calls.
package layout
