// What the router needs of a view: its route, its title and its element. A view may do work
// when it is shown (the object browser loads its lists then).

/** View is one page of the dashboard, reached at `#/<id>`. */
export interface View {
  readonly id: string;
  readonly title: string;
  readonly element: HTMLElement;
  /** shown runs each time the view is shown. */
  shown?(): void;
}
