import { render } from "preact";
import { App } from "./App";
import { retireFirstView } from "./first-view";
import "./styles.css";
import "./inbox.css";

const root = document.getElementById("app");
if (root) {
  render(<App />, root);
  retireFirstView(root);
}
