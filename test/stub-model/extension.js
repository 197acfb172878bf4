// TEST ONLY (docs/testing.md, "Chat"): VS Code calls a chat participant only when some language
// model is available. This registers one that answers every request with a fixed text and counts
// tokens by length. It is loaded as a second development extension by the extension-host and
// end-to-end harnesses, never shipped (.vscodeignore leaves test/ out of the .vsix).
const vscode = require('vscode');

exports.activate = async function activate(context) {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('den-stub', {
      provideLanguageModelChatInformation: () => [
        {
          id: 'den-stub-model',
          name: 'Den Stub',
          family: 'den-stub',
          version: '1',
          maxInputTokens: 100000,
          maxOutputTokens: 4000,
          capabilities: { toolCalling: true },
        },
      ],
      provideLanguageModelChatResponse: async (_model, _messages, _options, progress) => {
        progress.report(new vscode.LanguageModelTextPart('(stub model)'));
      },
      provideTokenCount: async (_model, text) =>
        Math.ceil((typeof text === 'string' ? text : JSON.stringify(text)).length / 4),
    }),
  );
  // Resolves the model once, so the workbench sees it before the first chat request.
  await vscode.lm.selectChatModels({ vendor: 'den-stub' });
};

exports.deactivate = function deactivate() {};
