package lsp

// The subset of the Language Server Protocol (3.17) the server speaks.

// Position is a 0-based line and a UTF-16 code unit offset in that line.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

func (p Position) before(q Position) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Character < q.Character)
}

// Range is [Start, End) in a document.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// overlaps reports whether r and q share a position, ends included (a
// cursor at either end of a finding selects it).
func (r Range) overlaps(q Range) bool {
	return !r.End.before(q.Start) && !q.End.before(r.Start)
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// TextEdit replaces Range with NewText.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// WorkspaceEdit holds edits by document URI.
type WorkspaceEdit struct {
	Changes map[string][]TextEdit `json:"changes"`
}

// Diagnostic is an LSP diagnostic.
type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           int                            `json:"severity"`
	Code               string                         `json:"code"`
	CodeDescription    *CodeDescription               `json:"codeDescription,omitempty"`
	Source             string                         `json:"source"`
	Message            string                         `json:"message"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
	Data               *DiagnosticData                `json:"data,omitempty"`
}

// CodeDescription links a diagnostic's code to its documentation.
type CodeDescription struct {
	Href string `json:"href"`
}

// DiagnosticRelatedInformation is a second location explaining a finding.
type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// DiagnosticData is what mdcontract adds to a diagnostic: the rule by ID
// and name, the contract that produced it, and whether it has a fix.
type DiagnosticData struct {
	Rule     string `json:"rule"`
	Name     string `json:"name"`
	Contract string `json:"contract,omitempty"`
	Fixable  bool   `json:"fixable,omitempty"`
}

// Diagnostic severities.
const (
	severityError       = 1
	severityWarning     = 2
	severityInformation = 3
)

// LSP message types of window/showMessage and window/logMessage.
const (
	messageError   = 1
	messageWarning = 2
	messageInfo    = 3
)

// Text document sync kinds: the server asks for incremental changes (the
// range each keystroke changed, not the whole buffer: a large file costs
// a keystroke no more to send and decode than a small one).
const (
	syncFull        = 1
	syncIncremental = 2
)

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type versionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type contentChange struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

type didChangeParams struct {
	TextDocument   versionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                 `json:"contentChanges"`
}

type didSaveParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type didCloseParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

type initializeParams struct {
	RootURI          *string            `json:"rootUri"`
	RootPath         *string            `json:"rootPath"`
	WorkspaceFolders []workspaceFolder  `json:"workspaceFolders"`
	Capabilities     clientCapabilities `json:"capabilities"`
}

type saveOptions struct {
	IncludeText bool `json:"includeText"`
}

type textDocumentSyncOptions struct {
	OpenClose bool        `json:"openClose"`
	Change    int         `json:"change"`
	Save      saveOptions `json:"save"`
}

type serverCapabilities struct {
	TextDocumentSync   textDocumentSyncOptions `json:"textDocumentSync"`
	CodeActionProvider bool                    `json:"codeActionProvider"`
	DefinitionProvider bool                    `json:"definitionProvider"`
	HoverProvider      bool                    `json:"hoverProvider"`
	RenameProvider     renameOptions           `json:"renameProvider"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   serverInfo         `json:"serverInfo"`
}

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// showMessage is the params of window/showMessage.
type showMessage struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// logMessage is the params of window/logMessage.
type logMessage struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// afterNote is a notification sent once a request is answered.
type afterNote interface{ method() string }

func (showMessage) method() string { return "window/showMessage" }
func (logMessage) method() string  { return "window/logMessage" }

type codeActionContext struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Only        []string     `json:"only,omitempty"`
}

type codeActionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      codeActionContext      `json:"context"`
}

// CodeAction is a quick fix offered for a diagnostic.
type CodeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

const kindQuickFix = "quickfix"

type textDocumentPositionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

type renameParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
	NewName      string                 `json:"newName"`
}

// prepareRenameResult is the range renamed and the name it holds.
type prepareRenameResult struct {
	Range       Range  `json:"range"`
	Placeholder string `json:"placeholder"`
}

// markupContent is a hover's text, as markdown.
type markupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

type hover struct {
	Contents markupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// textDocumentEdit edits one document of a workspace edit's
// documentChanges; Version is nil for a file not open in the editor.
type textDocumentEdit struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version *int   `json:"version"`
	} `json:"textDocument"`
	Edits []TextEdit `json:"edits"`
}

// renameFile is a workspace edit's file (or folder) rename.
type renameFile struct {
	Kind   string `json:"kind"` // "rename"
	OldURI string `json:"oldUri"`
	NewURI string `json:"newUri"`
}

// documentChangesEdit is a workspace edit that renames files.
type documentChangesEdit struct {
	DocumentChanges []any `json:"documentChanges"`
}

type renameOptions struct {
	PrepareProvider bool `json:"prepareProvider"`
}

type fileSystemWatcher struct {
	GlobPattern string `json:"globPattern"`
}

type registration struct {
	ID              string `json:"id"`
	Method          string `json:"method"`
	RegisterOptions any    `json:"registerOptions,omitempty"`
}

type registrationParams struct {
	Registrations []registration `json:"registrations"`
}

type fileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

type didChangeWatchedFilesParams struct {
	Changes []fileEvent `json:"changes"`
}

// clientCapabilities holds the few client capabilities the server reads.
type clientCapabilities struct {
	Workspace struct {
		WorkspaceEdit struct {
			DocumentChanges    bool     `json:"documentChanges"`
			ResourceOperations []string `json:"resourceOperations"`
		} `json:"workspaceEdit"`
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
	} `json:"workspace"`
}

// codeRequestFailed is LSP's error for a request that is valid but
// cannot be carried out (a rename that would not be complete).
const codeRequestFailed = -32803
