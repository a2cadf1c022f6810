import BlurLabelServe

ServeMain.exitAfterRunning(Array(CommandLine.arguments.dropFirst()))
