// Files imported with `with { type: "text" }` arrive as strings; `type: "file"` gives a path.
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.so" {
  const path: string;
  export default path;
}
