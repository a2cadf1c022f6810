import BlurredLabelKit

enum RenderCommand {
    static let spec = CommandSpec(name: "render", summary: "render a text label, blurred", positionals: ["TEXT"], options: [])
    static let command = CommandLineTool.Command(spec: spec) { _, _ in throw UsageError(message: "render is not built yet") }
}
