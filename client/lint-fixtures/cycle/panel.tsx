// The panel types its props from the screen that renders it: a circle of types, refused outside the server.
import type { ScreenProps } from "./screen";
export const Panel = (props: ScreenProps) => props.title;
