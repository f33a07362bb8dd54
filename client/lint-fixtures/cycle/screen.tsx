import { Panel } from "./panel";
export interface ScreenProps {
  title: string;
}
export const Screen = (props: ScreenProps) => Panel(props);
