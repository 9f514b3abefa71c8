package layout

// A Rect is cells in a workspace's area: X and Y its top-left corner
// (0-based), W and H its size. A window's tile's first row is its title
// bar, the rest its pane.
type Rect struct{ X, Y, W, H int }

// Tile minimums: smaller than this a shell is useless. A split whose
// tiles cannot each have it lays them out the other way, or shows those
// that fit (Tree.Place); the core refuses a split that would make a tile
// smaller (SplitSizes).
const (
	MinCols = 4
	MinRows = 2 // a title row and a pane row
	// Gutter is the column between side-by-side tiles, where a client
	// draws the border. Stacked tiles need none: the lower one's title
	// bar is the line.
	Gutter = 1
)
