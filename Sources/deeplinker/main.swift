import DeeplinkerCLI

await DeeplinkerCommand.main(arguments: nil)
